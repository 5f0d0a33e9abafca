import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import { POR_PAGINA } from './getApuestasDePartido';

export type PuntosDePartido = Schemas['PuntosDePartido'];
/** A page as shown: with the points filter it was asked with (the answer does not repeat it). */
export type PaginaDePuntos = PuntosDePartido & { filtro: number | undefined };

/** While the points are being computed (seconds after a result), asked again this often. */
const WHILE_SCORING_MS = 2_000;

/** GET /api/puntos: one page of who scored what in a finished match, by name; `puntos` keeps only those who scored that. */
export function getPuntosDePartido(partido: number, pagina: number, puntos: number | undefined): Promise<PuntosDePartido> {
  const query = { partido, pagina, por_pagina: POR_PAGINA, ...(puntos === undefined ? {} : { puntos }) };
  return unwrap(api.GET('/api/puntos', { params: { query } }));
}

/**
 * Keyed under 'resultados' and the match's tournament, so that live updates refresh it when a
 * result of that tournament is corrected (shared/live/liveQueries.ts).
 */
export function usePuntosDePartido(
  torneo: number,
  partido: number,
  pagina: number,
  puntos: number | undefined,
  jugadorId: number,
) {
  return useQuery({
    queryKey: ['resultados', torneo, 'puntos', partido, pagina, puntos ?? 'todos', jugadorId],
    queryFn: async (): Promise<PaginaDePuntos> => ({ ...(await getPuntosDePartido(partido, pagina, puntos)), filtro: puntos }),
    // The table stays while the next page or filter loads; its caption follows the rows shown.
    placeholderData: keepPreviousData,
    // Asked only for a match someone predicted: no points yet means scoring has not caught up.
    refetchInterval: (query) => (query.state.data?.por_puntos.length === 0 ? WHILE_SCORING_MS : false),
  });
}
