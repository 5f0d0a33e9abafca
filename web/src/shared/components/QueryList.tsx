import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { QueryView } from './QueryView';

interface Props<T> {
  query: UseQueryResult<T[]>;
  /** What "loading" reads as for this list, e.g. "Cargando las preguntas…". */
  loadingText: string;
  /** What an empty list reads as, e.g. "Este torneo todavía no tiene preguntas.". */
  emptyText: string;
  /** The list's class. */
  className: string;
  /** Only the first ones (a home block). */
  limit?: number;
  /** One item: an <li>, or a component drawing one, with its key. */
  children: (item: T) => ReactNode;
}

/** A list from a query: QueryView's loading and error, a sentence when there is nothing, else the items. */
export function QueryList<T>({ query, loadingText, emptyText, className, limit, children }: Props<T>) {
  return (
    <QueryView query={query} loadingText={loadingText}>
      {(items) =>
        items.length === 0 ? (
          <p className="empty">{emptyText}</p>
        ) : (
          <ul className={className}>{items.slice(0, limit).map((item) => children(item))}</ul>
        )
      }
    </QueryView>
  );
}
