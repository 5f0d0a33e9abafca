import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Grupo } from './types';

/** POST /api/grupos: creates a league; its creator is its owner and first member. */
export function postGrupo(nombre: string, torneo: number | undefined): Promise<Grupo> {
  return unwrap(api.POST('/api/grupos', { body: torneo === undefined ? { nombre } : { nombre, torneo } }));
}
