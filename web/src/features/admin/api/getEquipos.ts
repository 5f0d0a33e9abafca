import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

export type Equipo = Schemas['Equipo'];

/** GET /api/partidos/equipos: the teams the game knows, for the knock-out team pickers. */
export function getEquipos(): Promise<Equipo[]> {
  return unwrap(api.GET('/api/partidos/equipos'));
}

export function useEquipos() {
  return useQuery({ queryKey: ['equipos'], queryFn: getEquipos, staleTime: Infinity });
}
