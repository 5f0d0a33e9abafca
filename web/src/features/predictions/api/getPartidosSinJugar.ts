import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type PartidoSinJugar = Schemas['PartidoSinJugar'];

export const partidosSinJugarQueryKey = ['partidos-sin-jugar'] as const;

/** GET /api/partidos-sin-jugar: the matches still to be played, by kick-off. */
export function getPartidosSinJugar(): Promise<PartidoSinJugar[]> {
  return unwrap(api.GET('/api/partidos-sin-jugar'));
}

export function usePartidosSinJugar() {
  return useQuery({ queryKey: partidosSinJugarQueryKey, queryFn: getPartidosSinJugar });
}
