import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import type { Partido } from './getPartidos';

export type ResultadoEntrada = Schemas['ResultadoEntrada'];

/** PUT /api/partidos/{id}/resultado: enters or corrects a result; scoring follows on the server. */
export function putResultado(id: number, body: ResultadoEntrada): Promise<Partido> {
  return unwrap(api.PUT('/api/partidos/{id}/resultado', { params: { path: { id } }, body }));
}
