import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Apuesta } from './getApuestas';
import type { ApuestaEntrada } from './postApuesta';

/** PUT /api/jugadores/{email}/apuestas/{id}: a later save of a match's prediction. */
export function putApuesta(email: string, id: number, body: ApuestaEntrada): Promise<Apuesta> {
  return unwrap(
    api.PUT('/api/jugadores/{email}/apuestas/{apuesta}', {
      params: { path: { email, apuesta: id } },
      body,
    }),
  );
}
