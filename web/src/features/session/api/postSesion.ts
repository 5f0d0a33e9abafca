import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Jugador } from './getSesion';

/** POST /api/sesion: trades the sign-in popup's code for the session cookie and the player. */
export function postSesion(code: string): Promise<Jugador> {
  return unwrap(api.POST('/api/sesion', { body: { code } }));
}
