import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../shared/api/ApiError';

/** Retries only what may pass on its own (network, 5xx); a 4xx answer would only repeat. */
function shouldRetry(failures: number, error: unknown): boolean {
  if (failures >= 2) return false;
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

export function createQueryClient(): QueryClient {
  // A 401 anywhere means the session ended (expired, or 'Salir' in another tab): ask again who is
  // signed in, so the screens follow instead of showing the same error everywhere.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) {
      void client.invalidateQueries({ queryKey: ['sesion'] });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 15_000 },
      mutations: { retry: false },
    },
  });
  return client;
}
