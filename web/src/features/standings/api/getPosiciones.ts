import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { torneoKey, torneoParam } from '../../../shared/api/torneo';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import { useLiveRefetchInterval } from '../../../shared/live/liveContext';

export type Posiciones = Schemas['Posiciones'];
export type Posicion = Schemas['Posicion'];

export interface PosicionesParams {
  /** Undefined: the current tournament. */
  torneo?: number;
  /** A matchday ("YYYY-MM-DD"): that day's table; undefined: the whole table. */
  fecha?: string;
  pagina: number;
  porPagina: number;
}

/** GET /api/posiciones: one page of a tournament's standings (or of one matchday's), best first. */
export function getPosiciones({ torneo, fecha, pagina, porPagina }: PosicionesParams): Promise<Posiciones> {
  const query = { ...torneoParam(torneo), ...(fecha ? { fecha } : {}), pagina, por_pagina: porPagina };
  return unwrap(api.GET('/api/posiciones', { params: { query } }));
}

export function usePosiciones(params: PosicionesParams) {
  const { torneo, fecha, pagina, porPagina } = params;
  const tabla = [torneoKey(torneo), fecha ?? 'general'] as const;
  return useQuery({
    queryKey: ['posiciones', ...tabla, pagina, porPagina],
    queryFn: () => getPosiciones(params),
    // Paging keeps the current rows on screen until the next page arrives; another table does not.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === tabla[0] && previousQuery.queryKey[2] === tabla[1] ? previous : undefined,
    refetchInterval: useLiveRefetchInterval(),
  });
}
