import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';
import type { ConteoRespuestas } from './types';

/** GET /api/preguntas/{id}/respuestas: how everyone answered; only after the lock. */
export function getConteo(pregunta: number): Promise<ConteoRespuestas> {
  return unwrap(api.GET('/api/preguntas/{id}/respuestas', { params: { path: { id: pregunta } } }));
}

export function useConteo(pregunta: number) {
  return useQuery({ queryKey: ['preguntas', 'conteo', pregunta], queryFn: () => getConteo(pregunta) });
}
