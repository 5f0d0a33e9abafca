import { useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { torneoKey, torneoParam } from '../../../shared/api/torneo';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import { useLiveRefetchInterval } from '../../../shared/live/liveContext';

export type Tablero = Schemas['Tablero'];
export type FilaTablero = Schemas['FilaTablero'];
export type FilaTabla = Schemas['FilaTabla'];
export type FilasTabla = Schemas['FilasTabla'];

/**
 * The table a board is of: a tournament's (the current one when `torneo` is undefined) or one of
 * its matchdays' (`fecha`), or a league's (`grupo`, whose tournament is `torneo`).
 */
export type TablaDelTablero =
  | { grupo?: undefined; torneo?: number; fecha?: string }
  | { grupo: number; torneo: number; fecha?: undefined };

/** The number of rows "Ver 10 más" reads. */
export const FILAS_MAS = 10;

/**
 * The board's queries live under 'posiciones' with the tournament second, so a `posiciones`
 * event refetches them like the tables (shared/live).
 */
const tableroKey = (t: TablaDelTablero) =>
  ['posiciones', torneoKey(t.torneo), 'tablero', t.grupo ?? t.fecha ?? 'general'] as const;

/** GET /api/posiciones/tablero or /api/grupos/{id}/tablero: the player's around-me board. */
export function getTablero(t: TablaDelTablero): Promise<Tablero> {
  if (t.grupo !== undefined) {
    return unwrap(api.GET('/api/grupos/{id}/tablero', { params: { path: { id: t.grupo } } }));
  }
  const query = { ...torneoParam(t.torneo), ...(t.fecha ? { fecha: t.fecha } : {}) };
  return unwrap(api.GET('/api/posiciones/tablero', { params: { query } }));
}

/** GET .../filas: FILAS_MAS rows from `desde` on, of the board's version while it is kept. */
export function getFilas(t: TablaDelTablero, desde: number, version: number): Promise<FilasTabla> {
  const rango = { desde, cantidad: FILAS_MAS, version };
  if (t.grupo !== undefined) {
    return unwrap(api.GET('/api/grupos/{id}/filas', { params: { path: { id: t.grupo }, query: rango } }));
  }
  const query = { ...torneoParam(t.torneo), ...(t.fecha ? { fecha: t.fecha } : {}), ...rango };
  return unwrap(api.GET('/api/posiciones/filas', { params: { query } }));
}

export function useTablero(t: TablaDelTablero) {
  return useQuery({
    queryKey: tableroKey(t),
    queryFn: () => getTablero(t),
    refetchInterval: useLiveRefetchInterval(),
  });
}

/** The ranges the player opened with "Ver 10 más", each read at the board's version. */
export function useFilas(t: TablaDelTablero, desdes: number[], version: number | undefined) {
  return useQueries({
    queries: desdes.map((desde) => ({
      queryKey: [...tableroKey(t), 'filas', desde, version],
      queryFn: () => getFilas(t, desde, version ?? 1),
      enabled: version !== undefined,
    })),
  });
}
