import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type ApuestasDePartido = Schemas['ApuestasDePartido'];

/** Rows a page of the players' list shows (the server allows up to 100). */
export const POR_PAGINA = 50;

/** GET /api/apuestas: one page of everyone's predictions for a locked match, by name. */
export function getApuestasDePartido(partido: number, pagina: number): Promise<ApuestasDePartido> {
  return unwrap(api.GET('/api/apuestas', { params: { query: { partido, pagina, por_pagina: POR_PAGINA } } }));
}

export function useApuestasDePartido(partido: number, pagina: number, jugadorId: number) {
  return useQuery({
    queryKey: ['apuestas-partido', partido, pagina, jugadorId],
    queryFn: () => getApuestasDePartido(partido, pagina),
    placeholderData: keepPreviousData, // the table stays while the next page loads
  });
}
