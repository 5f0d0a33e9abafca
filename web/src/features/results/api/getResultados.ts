import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { torneoKey, torneoParam } from '../../../shared/api/torneo';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import { useLiveRefetchInterval } from '../../../shared/live/liveContext';

export type ResultadoPartido = Schemas['ResultadoPartido'];

/** GET /api/resultados: a tournament's finished matches, most recent first; signed in, with one's prediction and points. */
export function getResultados(torneo: number | undefined): Promise<ResultadoPartido[]> {
  return unwrap(api.GET('/api/resultados', { params: { query: torneoParam(torneo) } }));
}

/** Keyed by tournament (undefined: the current one) and by player: the same URL answers differently once signed in. */
export function useResultados(torneo: number | undefined, jugadorId: number | null) {
  return useQuery({
    queryKey: ['resultados', torneoKey(torneo), jugadorId],
    queryFn: () => getResultados(torneo),
    refetchInterval: useLiveRefetchInterval(),
  });
}
