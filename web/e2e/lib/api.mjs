// The API called from a signed-in page, as the app calls it (same origin, the session cookie).
import assert from 'node:assert/strict';

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
