import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Apuesta = Schemas['Apuesta'];

export const apuestasQueryKey = (email: string) => ['apuestas', email] as const;

/** GET /api/jugadores/{email}/apuestas: the signed-in player's own predictions. */
export function getApuestas(email: string): Promise<Apuesta[]> {
  return unwrap(api.GET('/api/jugadores/{email}/apuestas', { params: { path: { email } } }));
}

export function useApuestas(email: string) {
  return useQuery({ queryKey: apuestasQueryKey(email), queryFn: () => getApuestas(email) });
}
