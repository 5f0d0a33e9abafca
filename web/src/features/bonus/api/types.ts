import type { Schemas } from '../../../shared/api/types';

// The bonus questions' shapes from the contract (/api/preguntas): the predictions service keeps
// the answers, the fixtures service the questions and their right answers.

export type Opcion = Schemas['OpcionPregunta'];
/** A question as players see it, with one's own answer when signed in. */
export type Pregunta = Schemas['Pregunta'];
/** How many chose each option, once the question is closed. */
export type ConteoRespuestas = Schemas['RespuestasDePregunta'];
