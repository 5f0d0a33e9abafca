import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type ResumenApuestas = Schemas['ResumenApuestas'];
export type Distribucion = NonNullable<ResumenApuestas['distribucion']>;

/** Until the lock, asked again this often: everyone's predictions show without a reload once it passes. */
const UNTIL_LOCK_MS = 30_000;

/** GET /api/apuestas/resumen: one's own prediction, and everyone's distribution once the match is locked. */
export function getResumenApuestas(partido: number): Promise<ResumenApuestas> {
  return unwrap(api.GET('/api/apuestas/resumen', { params: { query: { partido } } }));
}

/** Keyed by player too: the same URL answers each player's own prediction. */
export function useResumenApuestas(partido: number, jugadorId: number) {
  return useQuery({
    queryKey: ['apuestas-resumen', partido, jugadorId],
    queryFn: () => getResumenApuestas(partido),
    refetchInterval: (query) => (query.state.data?.cerrado === false ? UNTIL_LOCK_MS : false),
  });
}
