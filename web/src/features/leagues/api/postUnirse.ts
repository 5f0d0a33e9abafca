import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Grupo } from './types';

/** POST /api/grupos/unirse: joins the league of a code; already a member is no error. */
export function postUnirse(codigo: string): Promise<Grupo> {
  return unwrap(api.POST('/api/grupos/unirse', { body: { codigo } }));
}
