interface Props {
  pagina: number;
  totalPaginas: number;
  onChange: (pagina: number) => void;
}

/** Previous/next through the pages of the standings (thousands of players). */
export function Pagination({ pagina, totalPaginas, onChange }: Props) {
  if (totalPaginas <= 1) return null;
  return (
    <nav className="pagination" aria-label="Páginas de la tabla">
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
