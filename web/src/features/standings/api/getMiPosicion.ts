import { api } from '../../../shared/api/client';
import { torneoKey, torneoParam } from '../../../shared/api/torneo';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type MiPosicion = Schemas['MiPosicion'];

/** Under 'posiciones': a new result refreshes one's own place too (shared/live). */
export const miPosicionQueryKey = (torneo: number | undefined, jugadorId: number) =>
  ['posiciones', torneoKey(torneo), 'yo', jugadorId] as const;

/** GET /api/posiciones/yo: the signed-in player's place, and the page (100 rows) that holds it. */
export function getMiPosicion(torneo: number | undefined): Promise<MiPosicion> {
  return unwrap(api.GET('/api/posiciones/yo', { params: { query: torneoParam(torneo) } }));
}
