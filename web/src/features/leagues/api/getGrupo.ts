import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import { grupoKey } from './keys';
import type { Grupo } from './types';

/** GET /api/grupos/{id}: a league, for its members only (403 no_es_miembro for anyone else). */
export function getGrupo(id: number): Promise<Grupo> {
  return unwrap(api.GET('/api/grupos/{id}', { params: { path: { id } } }));
}

export function useGrupo(id: number) {
  return useQuery({ queryKey: grupoKey(id), queryFn: () => getGrupo(id) });
}
