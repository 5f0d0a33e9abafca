import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { torneoKey, torneoParam } from '../../../shared/api/torneo';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Partido = Schemas['Partido'];

export const partidosQueryKey = ['partidos'] as const;

/** GET /api/partidos: every match of a tournament (undefined: the current one) with its state and result, by kick-off. */
export function getPartidos(torneo: number | undefined): Promise<Partido[]> {
  return unwrap(api.GET('/api/partidos', { params: { query: torneoParam(torneo) } }));
}

export function usePartidos(torneo: number | undefined) {
  return useQuery({ queryKey: [...partidosQueryKey, torneoKey(torneo)], queryFn: () => getPartidos(torneo) });
}
