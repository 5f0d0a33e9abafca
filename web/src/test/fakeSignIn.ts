import type { Route } from './fakeFetch';

/**
 * The sign-in's part of a fake server in dev mode, for a screen that signs in in place: signed
 * out until the chooser's code is exchanged (POST /api/sesion), unless `signedIn`, and `jugador`
 * from then on. Any other request is left to the test's own routes (undefined).
 */
export function signInRoutes(jugador: unknown, signedIn: boolean): Route {
  let session = signedIn;
  return (r) => {
    if (r.method === 'POST' && r.path === '/api/sesion') {
      session = true;
      return { status: 200, body: jugador };
    }
    if (r.method === 'POST' && r.path === '/api/jugadores') return { status: 200, body: jugador };
    if (r.path === '/api/sesion') {
      return session ? { status: 200, body: jugador } : { status: 401, body: { error: 'no_autenticado', mensaje: 'x' } };
    }
    if (r.path === '/api/sesion/proveedor') return { status: 200, body: { modo: 'dev', client_id: '' } };
    return undefined;
  };
}
