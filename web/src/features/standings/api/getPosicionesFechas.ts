import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { torneoKey, torneoParam } from '../../../shared/api/torneo';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import { useLiveRefetchInterval } from '../../../shared/live/liveContext';

export type Fechas = Schemas['Fechas'];
export type FechaJugada = Fechas['fechas'][number];
export type Ganador = FechaJugada['ganadores'][number];

/** GET /api/posiciones/fechas: the matchdays with results, newest first, with their best players. */
export function getPosicionesFechas(torneo: number | undefined): Promise<Fechas> {
  return unwrap(api.GET('/api/posiciones/fechas', { params: { query: torneoParam(torneo) } }));
}

export function usePosicionesFechas(torneo: number | undefined) {
  return useQuery({
    queryKey: ['posiciones', torneoKey(torneo), 'fechas'],
    queryFn: () => getPosicionesFechas(torneo),
    refetchInterval: useLiveRefetchInterval(),
  });
}
