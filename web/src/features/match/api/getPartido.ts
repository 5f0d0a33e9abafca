import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';
import { useLiveRefetchInterval } from '../../../shared/live/liveContext';

export type Partido = Schemas['Partido'];

/** GET /api/partidos/{id}: one match of any tournament, with its state and result. */
export function getPartido(id: number): Promise<Partido> {
  return unwrap(api.GET('/api/partidos/{id}', { params: { path: { id } } }));
}

/** Follows the match while the page is open (polling when there is no live stream): a result may come in. */
export function usePartido(id: number) {
  return useQuery({ queryKey: ['partido', id], queryFn: () => getPartido(id), refetchInterval: useLiveRefetchInterval() });
}
