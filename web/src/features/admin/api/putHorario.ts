import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Partido } from './getPartidos';

export interface Horario {
  /** RFC 3339. */
  inicio: string;
  /** Move it even if that reopens betting after everyone's predictions were shown. */
  forzar?: boolean;
}

/** PUT /api/partidos/{id}/horario: reschedules a match (409 apuestas_reveladas: see deleteResultado). */
export function putHorario(id: number, { inicio, forzar = false }: Horario): Promise<Partido> {
  return unwrap(
    api.PUT('/api/partidos/{id}/horario', { params: { path: { id } }, body: { inicio, forzar } }),
  );
}
