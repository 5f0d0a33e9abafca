import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Grupo } from './types';

/** PATCH /api/grupos/{id}: the owner renames the league. */
export function patchGrupo(id: number, nombre: string): Promise<Grupo> {
  return unwrap(api.PATCH('/api/grupos/{id}', { params: { path: { id } }, body: { nombre } }));
}
