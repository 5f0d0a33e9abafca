import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Posiciones = Schemas['Posiciones'];
export type Posicion = Schemas['Posicion'];

/** GET /api/posiciones: one page of the standings, best first. */
export function getPosiciones(pagina: number, porPagina: number): Promise<Posiciones> {
  return unwrap(api.GET('/api/posiciones', { params: { query: { pagina, por_pagina: porPagina } } }));
}

export function usePosiciones(pagina: number, porPagina: number) {
  return useQuery({
    queryKey: ['posiciones', pagina, porPagina],
    queryFn: () => getPosiciones(pagina, porPagina),
    // Paging keeps the current rows on screen until the next page arrives.
    placeholderData: keepPreviousData,
  });
}
