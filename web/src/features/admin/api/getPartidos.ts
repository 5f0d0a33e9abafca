import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Partido = Schemas['Partido'];

export const partidosQueryKey = ['partidos'] as const;

/** GET /api/partidos: every match with its state and result, by kick-off. */
export function getPartidos(): Promise<Partido[]> {
  return unwrap(api.GET('/api/partidos'));
}

export function usePartidos() {
  return useQuery({ queryKey: partidosQueryKey, queryFn: getPartidos });
}
