import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { torneoParam } from '../../../shared/api/torneo';
import { unwrap } from '../../../shared/api/unwrap';
import { misGruposKey } from './keys';
import type { GrupoResumen } from './types';

/** GET /api/grupos: the signed-in player's leagues in a tournament (undefined: the current one). */
export function getGrupos(torneo: number | undefined): Promise<GrupoResumen[]> {
  return unwrap(api.GET('/api/grupos', { params: { query: torneoParam(torneo) } }));
}

export function useGrupos(torneo: number | undefined) {
  return useQuery({ queryKey: misGruposKey(torneo), queryFn: () => getGrupos(torneo) });
}
