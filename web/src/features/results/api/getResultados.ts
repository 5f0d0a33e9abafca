import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type ResultadoPartido = Schemas['ResultadoPartido'];

/** GET /api/resultados: finished matches, most recent first; signed in, with one's prediction and points. */
export function getResultados(): Promise<ResultadoPartido[]> {
  return unwrap(api.GET('/api/resultados'));
}

/** Keyed by player: the same URL answers differently once signed in. */
export function useResultados(jugadorId: number | null) {
  return useQuery({ queryKey: ['resultados', jugadorId], queryFn: getResultados });
}
