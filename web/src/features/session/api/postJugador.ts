import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Jugador } from './getSesion';

/** POST /api/jugadores: registers or refreshes the player (the specification does it on every sign-in). */
export function postJugador(jugador: Pick<Jugador, 'nombre' | 'email'>): Promise<Jugador> {
  return unwrap(api.POST('/api/jugadores', { body: { nombre: jugador.nombre, email: jugador.email } }));
}
