import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Partido } from './getPartidos';

/** PUT /api/partidos/{id}/horario: reschedules a match; `inicio` is RFC 3339. */
export function putHorario(id: number, inicio: string): Promise<Partido> {
  return unwrap(api.PUT('/api/partidos/{id}/horario', { params: { path: { id } }, body: { inicio } }));
}
