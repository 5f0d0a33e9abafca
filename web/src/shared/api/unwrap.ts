import { ApiError, NETWORK_MESSAGE, errorFromResponse } from './ApiError';

interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Awaits an openapi-fetch call and returns its data, or throws an ApiError whose message is the
 * server's Spanish `mensaje` (or a Spanish fallback), so every screen can show it as it is.
 */
export async function unwrap<T>(call: Promise<CallResult<T>>): Promise<T> {
  let result: CallResult<T>;
  try {
    result = await call;
  } catch {
    // fetch rejects only when no response arrived (offline, DNS, connection refused), and
    // openapi-fetch when a 2xx body is not the JSON it announced.
    throw new ApiError(0, 'sin_conexion', NETWORK_MESSAGE);
  }
  if (!result.response.ok) throw errorFromResponse(result.response, result.error);
  return result.data as T;
}
