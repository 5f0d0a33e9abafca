import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type MiPosicion = Schemas['MiPosicion'];

/** GET /api/posiciones/yo: the signed-in player's place, and the page (100 rows) that holds it. */
export function getMiPosicion(): Promise<MiPosicion> {
  return unwrap(api.GET('/api/posiciones/yo'));
}
