import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { ApiError } from '../../../shared/api/ApiError';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Jugador = Schemas['Jugador'];

export const sesionQueryKey = ['sesion'] as const;

/** GET /api/sesion: the signed-in player, or null when signed out (401 is an answer, not an error). */
export async function getSesion(): Promise<Jugador | null> {
  try {
    return await unwrap(api.GET('/api/sesion'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useSesion() {
  return useQuery({ queryKey: sesionQueryKey, queryFn: getSesion, staleTime: 5 * 60_000 });
}
