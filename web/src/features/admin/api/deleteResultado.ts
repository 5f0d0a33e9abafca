import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Partido } from './getPartidos';

/**
 * DELETE /api/partidos/{id}/resultado: removes a result entered by mistake. When that would reopen
 * betting after everyone's predictions were shown, the server refuses (409 apuestas_reveladas)
 * unless `forzar`, which the audit list records.
 */
export function deleteResultado(id: number, forzar = false): Promise<Partido> {
  return unwrap(
    api.DELETE('/api/partidos/{id}/resultado', { params: { path: { id } }, body: forzar ? { forzar } : undefined }),
  );
}
