import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

/** POST /api/grupos/{id}/codigo: a new invite code; the old one stops working. */
export function postCodigo(id: number): Promise<Schemas['CodigoGrupo']> {
  return unwrap(api.POST('/api/grupos/{id}/codigo', { params: { path: { id } } }));
}

/** DELETE /api/grupos/{id}/codigo: no code works until a new one. */
export async function deleteCodigo(id: number): Promise<void> {
  await unwrap(api.DELETE('/api/grupos/{id}/codigo', { params: { path: { id } } }));
}
