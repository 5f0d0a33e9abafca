import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { QueryView } from './QueryView';
import './pagination.css';

// Paging through a long list: the API's page, the previous/next control, and a query's page drawn
// with the control under it. One module: as a file of its own, PagedQueryView (used by the initial
// chunk and a lazy one) made the bundler split React and the shared modules into a second initial
// chunk, 1.7 KB gzip more.

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

interface PagedProps<T extends Paged> {
  query: UseQueryResult<T>;
  loadingText: string;
  /** The Pagination's name for screen readers: "Páginas de la tabla". */
  label: string;
  onChange: (pagina: number) => void;
  /** The page's rows. */
  children: (page: T) => ReactNode;
}

/** A query for one page of a long table: QueryView's states, the page, and under it the way to the others. */
export function PagedQueryView<T extends Paged>({ query, loadingText, label, onChange, children }: PagedProps<T>) {
  return (
    <QueryView query={query} loadingText={loadingText}>
      {(page) => (
        <>
          {children(page)}
          <Pagination label={label} pagina={page.pagina} totalPaginas={totalPaginas(page)} onChange={onChange} />
        </>
      )}
    </QueryView>
  );
}
