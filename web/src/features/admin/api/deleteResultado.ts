import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Partido } from './getPartidos';

/** DELETE /api/partidos/{id}/resultado: removes a result entered by mistake. */
export function deleteResultado(id: number): Promise<Partido> {
  return unwrap(api.DELETE('/api/partidos/{id}/resultado', { params: { path: { id } } }));
}
