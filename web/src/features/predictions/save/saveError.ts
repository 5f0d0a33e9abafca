import { ApiError } from '../../../shared/api/ApiError';

export const SIN_CONEXION =
  'Sin conexión: tu jugada no se guardó. Probá de nuevo cuando vuelvas a tener internet.';
export const SIN_SERVIDOR =
  'No pudimos conectar con el servidor: tu jugada no se guardó. Revisá tu conexión y probá de nuevo.';
export const SESION_CERRADA =
  'Tu sesión se cerró y tu jugada no se guardó. Ingresá de nuevo: la vas a encontrar acá, lista para guardar.';
const ALGO_SALIO_MAL = 'Algo salió mal y tu jugada no se guardó. Probá de nuevo.';

/**
 * Refusals that mean the match no longer takes predictions and the list on screen is stale:
 * reloading it takes the card's inputs away. Not 'partido_finalizado': a played match leaves the
 * list, and its card with the message would go before the player could read it; the list's next
 * reload takes it away.
 */
export const STALE_LIST_CODES = new Set(['apuesta_cerrada', 'partido_no_apostable', 'partido_sin_equipos']);

export interface SaveErrorText {
  message: string;
  /** Whether trying again may work: a network failure or a busy server, never a refusal. */
  retry: boolean;
}

/** The session ended (expired, or 'Salir' elsewhere): the save needs a new sign-in. */
export const sessionEnded = (error: unknown) => error instanceof ApiError && error.status === 401;

/** What a failed save tells the player, and whether 'Reintentar' is worth offering. */
export function describeSaveError(error: unknown, online = navigator.onLine): SaveErrorText {
  if (!(error instanceof ApiError)) return { message: ALGO_SALIO_MAL, retry: true };
  if (error.status === 0) return { message: online ? SIN_SERVIDOR : SIN_CONEXION, retry: true };
  if (error.status === 401) return { message: SESION_CERRADA, retry: false };
  // Too many saves in a row, or a server in trouble: the same save may pass in a moment.
  if (error.status === 429 || error.status >= 500) return { message: error.message, retry: true };
  // Everything else is the server's refusal, in the player's words: sending it again changes nothing.
  return { message: error.message, retry: false };
}
