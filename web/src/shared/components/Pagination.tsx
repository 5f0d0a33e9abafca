import './pagination.css';

interface Props {
  pagina: number;
  totalPaginas: number;
  onChange: (pagina: number) => void;
  /** What is paged, for screen readers: "Páginas de la tabla". */
  label: string;
}

/** A page of a list as the API answers it: which page, how many items in all and per page. */
export interface Paged {
  pagina: number;
  total: number;
  por_pagina: number;
}

/** How many pages the list has; an empty list is still one (empty) page. */
export const totalPaginas = (page: Paged) => Math.max(1, Math.ceil(page.total / page.por_pagina));

/** Previous/next through the pages of a long list (the standings, a match's players). */
export function Pagination({ pagina, totalPaginas, onChange, label }: Props) {
  if (totalPaginas <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => onChange(pagina - 1)}
        disabled={pagina <= 1}
      >
        Anterior
      </button>
      <span aria-live="polite">
        Página {pagina} de {totalPaginas}
      </span>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => onChange(pagina + 1)}
        disabled={pagina >= totalPaginas}
      >
        Siguiente
      </button>
    </nav>
  );
}
