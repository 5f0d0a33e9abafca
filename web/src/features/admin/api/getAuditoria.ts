import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Auditoria = Schemas['Auditoria'];
export type CambioOrganizador = Schemas['CambioOrganizador'];

/** GET /api/auditoria: one page of the organisers' changes, newest first (organisers only). */
export function getAuditoria(pagina: number, porPagina: number): Promise<Auditoria> {
  return unwrap(api.GET('/api/auditoria', { params: { query: { pagina, por_pagina: porPagina } } }));
}

export function useAuditoria(pagina: number, porPagina: number) {
  return useQuery({
    queryKey: ['auditoria', pagina, porPagina],
    queryFn: () => getAuditoria(pagina, porPagina),
    // Turning a page keeps the list on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}
