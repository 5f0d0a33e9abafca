import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The one HTTP client of the app, typed from the OpenAPI contract (schema.d.ts, `npm run gen:api`).
 * Every call is same-origin: nginx routes /api/ to the services, and the session is an HttpOnly
 * cookie the browser sends itself. openapi-fetch sends JSON bodies with Content-Type: application/json.
 */
export const api = createClient<paths>({
  // An absolute base: Request() outside a page (the unit tests) refuses relative URLs.
  baseUrl: window.location.origin,
  credentials: 'same-origin',
  // Looked up at call time, so tests can replace window.fetch after this module loads.
  fetch: (request) => globalThis.fetch(request),
});
