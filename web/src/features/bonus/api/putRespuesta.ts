import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

/** PUT /api/preguntas/{id}/respuesta: saves one's answer; 409 pregunta_cerrada after the lock. */
export function putRespuesta(pregunta: number, opcion: number): Promise<Schemas['Respuesta']> {
  return unwrap(api.PUT('/api/preguntas/{id}/respuesta', { params: { path: { id: pregunta } }, body: { opcion } }));
}
