interface Props {
  pagina: number;
  totalPaginas: number;
  onChange: (pagina: number) => void;
}

/** Previous and next through the pages of the players' list (a match may have thousands). */
export function ListPager({ pagina, totalPaginas, onChange }: Props) {
  if (totalPaginas <= 1) return null;
  return (
    <nav className="list-pager" aria-label="Páginas de la lista de jugadas">
      <button type="button" className="button button--secondary" onClick={() => onChange(pagina - 1)} disabled={pagina <= 1}>
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
