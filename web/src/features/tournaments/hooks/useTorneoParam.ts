import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { parseTorneo } from '../../../shared/api/torneo';

/**
 * The tournament a screen shows, from `?torneo=<id>` (undefined: the current one), and a way to
 * choose another. Choosing starts the screen over: other parameters (page, matchday) are dropped.
 */
export function useTorneoParam(): [number | undefined, (torneo: number) => void] {
  const [params, setParams] = useSearchParams();
  const torneo = parseTorneo(params.get('torneo'));
  const choose = useCallback((id: number) => setParams({ torneo: String(id) }), [setParams]);
  return [torneo, choose];
}
