import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import type { Apuesta } from './getApuestas';

export type ApuestaEntrada = Schemas['ApuestaEntrada'];

/** POST /api/jugadores/{email}/apuestas: the first save of a match's prediction. */
export function postApuesta(email: string, body: ApuestaEntrada): Promise<Apuesta> {
  return unwrap(api.POST('/api/jugadores/{email}/apuestas', { params: { path: { email } }, body }));
}
