import { api } from '../../../shared/api/client';
import type { paths } from '../../../shared/api/schema';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Importacion = Schemas['Importacion'];
/** openfootball's worldcup.json: a name and its matches (the server reads the rest). */
export type Torneo = paths['/api/partidos/importar']['post']['requestBody']['content']['application/json'];

/**
 * POST /api/partidos/importar: a tournament in openfootball's worldcup.json format. `desfase`
 * ("+03:00") is the UTC offset for kick-off times written without one.
 */
export function postImportar(torneo: Torneo, desfase: string): Promise<Importacion> {
  return unwrap(
    api.POST('/api/partidos/importar', {
      params: { query: desfase ? { desfase } : {} },
      body: torneo,
    }),
  );
}
