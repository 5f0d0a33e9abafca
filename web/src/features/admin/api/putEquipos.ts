import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import type { Partido } from './getPartidos';

export type EquiposEntrada = Schemas['EquiposEntrada'];

/** PUT /api/partidos/{id}/equipos: sets a knock-out match's teams once they are known. */
export function putEquipos(id: number, body: EquiposEntrada): Promise<Partido> {
  return unwrap(api.PUT('/api/partidos/{id}/equipos', { params: { path: { id } }, body }));
}
