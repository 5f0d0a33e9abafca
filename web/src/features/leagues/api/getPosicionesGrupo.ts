import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import { useLiveRefetchInterval } from '../../../shared/live/liveContext';
import { posicionesGrupoKey } from './keys';
import type { PosicionesGrupo } from './types';

/** GET /api/grupos/{id}/posiciones: a page of the league's table, ranked within the league. */
export function getPosicionesGrupo(id: number, pagina: number, porPagina: number): Promise<PosicionesGrupo> {
  const params = { path: { id }, query: { pagina, por_pagina: porPagina } };
  return unwrap(api.GET('/api/grupos/{id}/posiciones', { params }));
}

/** Live like the main table: the tournament's `posiciones` events refetch it (shared/live). */
export function usePosicionesGrupo(torneo: number, id: number, pagina: number, porPagina: number) {
  const key = posicionesGrupoKey(torneo, id);
  return useQuery({
    queryKey: [...key, pagina, porPagina],
    queryFn: () => getPosicionesGrupo(id, pagina, porPagina),
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === id ? previous : undefined),
    refetchInterval: useLiveRefetchInterval(),
  });
}
