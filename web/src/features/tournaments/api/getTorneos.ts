import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Torneo = Schemas['Torneo'];

// shared/live reads the current tournament from this key.
export const torneosQueryKey = ['torneos'] as const;

/** GET /api/torneos: every tournament, the current one first. */
export function getTorneos(): Promise<Torneo[]> {
  return unwrap(api.GET('/api/torneos'));
}

export function useTorneos() {
  return useQuery({ queryKey: torneosQueryKey, queryFn: getTorneos, staleTime: 5 * 60_000 });
}
