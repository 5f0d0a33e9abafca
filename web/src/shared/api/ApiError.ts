/** A failed call, with the message to show people (Spanish) and the server's stable code. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The error body's `error` code (e.g. "apuesta_cerrada"), or a local one. */
    readonly code: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const NETWORK_MESSAGE =
  'No pudimos conectar con el servidor. Revisá tu conexión e intentá de nuevo.';
const SERVER_MESSAGE = 'El servidor tuvo un problema. Intentá de nuevo en un momento.';
const GENERIC_MESSAGE = 'Algo salió mal. Intentá de nuevo.';

interface ErrorBody {
  error?: unknown;
  mensaje?: unknown;
  request_id?: unknown;
}

/** Builds the ApiError for a response that was not ok, preferring the body's own `mensaje`. */
export function errorFromResponse(response: Response, body: unknown): ApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const code = typeof b.error === 'string' ? b.error : `http_${response.status}`;
  const requestId = typeof b.request_id === 'string' ? b.request_id : undefined;
  if (typeof b.mensaje === 'string' && b.mensaje.trim() !== '') {
    return new ApiError(response.status, code, b.mensaje, requestId);
  }
  const fallback = response.status >= 500 ? SERVER_MESSAGE : GENERIC_MESSAGE;
  return new ApiError(response.status, code, fallback, requestId);
}

/** The Spanish text to show for anything a call may throw. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return GENERIC_MESSAGE;
}

/**
 * A refusal that trying again as it is cannot change (not a member, a revoked code, a full
 * league): a 4xx other than "too many requests". Shown without 'Reintentar'.
 */
export function isFinalRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
}
