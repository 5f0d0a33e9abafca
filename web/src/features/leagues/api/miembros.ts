import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import { miembrosKey } from './keys';
import type { Miembro } from './types';

/** GET /api/grupos/{id}/miembros: one page of a league's members. */
export function getMiembros(id: number, pagina: number): Promise<Miembro[]> {
  return unwrap(api.GET('/api/grupos/{id}/miembros', { params: { path: { id }, query: { pagina } } }));
}

/** The members, a page at a time ("Ver más") until all `total` of them are on screen. */
export function useMiembros(id: number, total: number) {
  return useInfiniteQuery({
    queryKey: miembrosKey(id),
    queryFn: ({ pageParam }) => getMiembros(id, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, page) => n + page.length, 0);
      return last.length > 0 && loaded < total ? pages.length + 1 : undefined;
    },
  });
}

/** DELETE /api/grupos/{id}/miembros/{jugador}: the owner removes a member, or a member leaves. */
export async function deleteMiembro(id: number, jugador: number): Promise<void> {
  await unwrap(api.DELETE('/api/grupos/{id}/miembros/{jugador}', { params: { path: { id, jugador } } }));
}
