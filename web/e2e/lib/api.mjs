// The API called as the app calls it (same origin, the session cookie): from a signed-in page,
// or with a person's browser context (peopleForSuite) while no page of theirs is open.
import assert from 'node:assert/strict';
import { BASE_URL } from './browser.mjs';

const ORIGIN = new URL(BASE_URL).origin;

/** The answer's status and JSON body (null when it has none). */
export function call(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const r = await fetch(path, {
        method,
        headers: body ? { 'Content-Type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: r.status, body: await r.json().catch(() => null) };
    },
    { method, path, body },
  );
}

/** The answer's JSON body; a status of 300 or more fails the test. */
export async function api(page, method, path, body) {
  const res = await call(page, method, path, body);
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A call with the person's session cookie, a same-origin write as the app's: the status, the
 * JSON body (null when it has none, as a 204) and the text. */
export async function callAs(person, method, path, data) {
  const res = await person.context.request.fetch(new URL(path.replace(/^\//, ''), BASE_URL).href, {
    method,
    data,
    headers: { Origin: ORIGIN },
  });
  const text = await res.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // No body (204).
  }
  return { status: res.status(), body, text };
}

/** callAs's JSON body; a status of 300 or more fails the test. */
export async function apiAs(person, method, path, data) {
  const res = await callAs(person, method, path, data);
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** As the organiser, a match open for predictions (kick-off in 4 days) between the first two
 * teams, in the tournament named torneo (made by this call when new): the match as the API
 * answers it, torneo_id included. */
export async function openMatchIn(admin, torneo) {
  const equipos = await apiAs(admin, 'GET', '/api/partidos/equipos');
  return apiAs(admin, 'POST', '/api/partidos', {
    torneo,
    nombre_categoria: 'Grupo de prueba',
    codigo_local: equipos[0].codigo,
    codigo_visitante: equipos[1].codigo,
    inicio: new Date(Date.now() + 4 * 24 * 3600_000).toISOString(),
  });
}
