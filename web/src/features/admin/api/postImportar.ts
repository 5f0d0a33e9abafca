import { api } from '../../../shared/api/client';
import type { paths } from '../../../shared/api/schema';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Importacion = Schemas['Importacion'];
export type Cambio = Schemas['Cambio'];
export type TipoCambio = Cambio['cambio'];
/** The body: openfootball's worldcup.json (a name and its matches; the server reads the rest) and the options. */
type ImportarEntrada = paths['/api/partidos/importar']['post']['requestBody']['content']['application/json'];
/** openfootball's worldcup.json: a name and its matches. */
export type Torneo = Omit<ImportarEntrada, 'resultados' | 'desplazamiento_minutos' | 'simular'>;

export interface OpcionesImportar {
  /** UTC offset ("+03:00") for kick-off times written without one. */
  desfase: string;
  /** Enter the results the file has; false: fixtures only. */
  resultados: boolean;
  /** Moves every kick-off by this many minutes (negative: earlier), with or without an offset. */
  desplazamientoMinutos: number;
  /** A dry run: the answer says what would change, nothing is saved. */
  simular: boolean;
}

/**
 * POST /api/partidos/importar: a tournament in openfootball's worldcup.json format, with the
 * organiser's options next to the file's own fields.
 */
export function postImportar(torneo: Torneo, opciones: OpcionesImportar): Promise<Importacion> {
  const { desfase, resultados, desplazamientoMinutos, simular } = opciones;
  return unwrap(
    api.POST('/api/partidos/importar', {
      params: { query: desfase ? { desfase } : {} },
      body: { ...torneo, resultados, desplazamiento_minutos: desplazamientoMinutos, simular },
    }),
  );
}
