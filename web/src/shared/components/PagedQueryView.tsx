import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Pagination, totalPaginas, type Paged } from './Pagination';
import { QueryView } from './QueryView';

interface Props<T extends Paged> {
  query: UseQueryResult<T>;
  loadingText: string;
  /** The Pagination's name for screen readers: "Páginas de la tabla". */
  label: string;
  onChange: (pagina: number) => void;
  /** The page's rows. */
  children: (page: T) => ReactNode;
}

/** A query for one page of a long table: QueryView's states, the page, and under it the way to the others. */
export function PagedQueryView<T extends Paged>({ query, loadingText, label, onChange, children }: Props<T>) {
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
