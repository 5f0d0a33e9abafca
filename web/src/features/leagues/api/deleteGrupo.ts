import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';

/** DELETE /api/grupos/{id}: the owner deletes the league. */
export async function deleteGrupo(id: number): Promise<void> {
  await unwrap(api.DELETE('/api/grupos/{id}', { params: { path: { id } } }));
}
