import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorMessage } from './ErrorMessage';

interface Props<T> {
  query: UseQueryResult<T>;
  /** What "loading" reads as for this list, e.g. "Cargando la tabla…". */
  loadingText?: string;
  children: (data: T) => ReactNode;
}

/** Renders a query's three states the same way everywhere: loading, error with retry, data. */
export function QueryView<T>({ query, loadingText = 'Cargando…', children }: Props<T>) {
  if (query.isPending) {
    return (
      <p className="loading" role="status">
        {loadingText}
      </p>
    );
  }
  if (query.isError) return <ErrorMessage error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
