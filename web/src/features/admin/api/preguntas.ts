import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import type { Schemas } from '../../../shared/api/types';
import { unwrap } from '../../../shared/api/unwrap';

// The organiser's bonus questions (/api/torneos/{id}/preguntas), owned by the fixtures service
// like matches and results.

/** A question with its options, its lock (its own or the default) and its right answers. */
export type PreguntaAdmin = Schemas['PreguntaOrganizador'];
export type PreguntaEntrada = Schemas['PreguntaEntrada'];

export const preguntasAdminKey = (torneo: number) => ['preguntas', torneo, 'admin'] as const;

/** GET /api/torneos/{id}/preguntas: the tournament's questions with their right answers. */
export function getPreguntasAdmin(torneo: number): Promise<PreguntaAdmin[]> {
  return unwrap(api.GET('/api/torneos/{id}/preguntas', { params: { path: { id: torneo } } }));
}

export function usePreguntasAdmin(torneo: number) {
  return useQuery({ queryKey: preguntasAdminKey(torneo), queryFn: () => getPreguntasAdmin(torneo) });
}

/** POST /api/torneos/{id}/preguntas: a new question. */
export function postPregunta(torneo: number, body: PreguntaEntrada): Promise<PreguntaAdmin> {
  return unwrap(api.POST('/api/torneos/{id}/preguntas', { params: { path: { id: torneo } }, body }));
}

const respuestaPath = (torneo: number, pregunta: number) => ({ params: { path: { id: torneo, pregunta } } });

/** PUT .../respuesta: enters or corrects the right option(s); points follow through scoring. */
export function putRespuestaCorrecta(torneo: number, pregunta: number, opciones: number[]): Promise<PreguntaAdmin> {
  return unwrap(api.PUT('/api/torneos/{id}/preguntas/{pregunta}/respuesta', { ...respuestaPath(torneo, pregunta), body: { opciones } }));
}

/** DELETE .../respuesta: clears the right answer; the points it gave are taken back. */
export function deleteRespuestaCorrecta(torneo: number, pregunta: number): Promise<PreguntaAdmin> {
  return unwrap(api.DELETE('/api/torneos/{id}/preguntas/{pregunta}/respuesta', respuestaPath(torneo, pregunta)));
}
