import './pagination.css';

interface Props {
  pagina: number;
  totalPaginas: number;
  onChange: (pagina: number) => void;
  /** What is paged, for screen readers: "Páginas de la tabla". */
  label: string;
}

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
