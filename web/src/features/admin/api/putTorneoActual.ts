import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { Torneo } from '../../tournaments';

/** PUT /api/torneos/actual: the tournament players see by default (matches, standings, results). */
export function putTorneoActual(torneo: number): Promise<Torneo> {
  return unwrap(api.PUT('/api/torneos/actual', { body: { torneo } }));
}
