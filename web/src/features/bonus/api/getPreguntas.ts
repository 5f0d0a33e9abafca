import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { torneoKey, torneoParam } from '../../../shared/api/torneo';
import { unwrap } from '../../../shared/api/unwrap';
import type { Pregunta } from './types';

/** Under 'preguntas' with the tournament second: a `posiciones` event refreshes it too (shared/live). */
export const preguntasKey = (torneo: number | undefined) => ['preguntas', torneoKey(torneo)] as const;

/** GET /api/preguntas: a tournament's bonus questions (undefined: the current one), with one's answers. */
export function getPreguntas(torneo: number | undefined): Promise<Pregunta[]> {
  return unwrap(api.GET('/api/preguntas', { params: { query: torneoParam(torneo) } }));
}

export function usePreguntas(torneo: number | undefined) {
  return useQuery({ queryKey: preguntasKey(torneo), queryFn: () => getPreguntas(torneo) });
}
