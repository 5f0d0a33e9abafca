import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import type { Partido } from './getPartidos';

export type Estado = Schemas['EstadoEntrada']['estado'];

/** PUT /api/partidos/{id}/estado: suspends a match or puts it back on schedule. */
export function putEstado(id: number, estado: Estado): Promise<Partido> {
  return unwrap(api.PUT('/api/partidos/{id}/estado', { params: { path: { id } }, body: { estado } }));
}
