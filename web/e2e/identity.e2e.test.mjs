// The identity-attack matrix of issue 6, through the real nginx and the real service binaries
// (`make test-e2e`'s stack, or `make up`'s): PRODE_URL, default http://localhost:8080/.
//
// Arrange: two fresh players, Ana and Bruno, and the demo organiser sign in through the dev
// account chooser's HTTP endpoints (the same exchange and session code as Google's path); the
// organiser creates an open match a few days ahead; Bruno predicts it. Then every row of the
// matrix is one attack: other players' e-mails in paths and bodies, no cookie, forged cookies
// (a changed character, changed claims under the old MAC, another key, no MAC), cross-site
// writes (Origin, Sec-Fetch-Site), a player and a stranger on the organiser's routes, forged
// sign-in codes and a genuine one exchanged again, and Bruno's cookie replayed after 'Salir'. Each must be refused with the status
// and stable error code the services document, as a JSON error with a request id and no
// Set-Cookie, and after each one nothing has changed: Bruno's predictions, Ana's (none), the
// matches and everyone's session (the player as stored now). The standings are read once at the
// end, when no cached page can predate the attacks: nobody was registered or renamed.
//
// Not here, because they need a key only the server has or a fake Google: expired session tokens
// (services/platform/session/token_test.go) and forged, expired, wrong-audience, wrong-issuer and
// unverified Google ID tokens (services/players/internal/http/session_handlers_test.go,
// TestGoogleSignInVerifiesTheIDToken).
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BASE_URL } from './lib/browser.mjs';

const ORIGIN = new URL(BASE_URL).origin;
/** origin with http and https swapped. */
const otherScheme = (origin) => origin.replace(/^(https?):/, (_, scheme) => (scheme === 'http' ? 'https:' : 'http:'));
const EVIL = 'https://evil.example';
const COOKIE = 'prode_sesion';

const stamp = Date.now().toString(36);
const ANA = { email: `ana-${stamp}@prode.test`, nombre: `Ana Ataques ${stamp}` };
const BRUNO = { email: `bruno-${stamp}@prode.test`, nombre: `Bruno Ataques ${stamp}` };
const EVE = { email: `eve-${stamp}@prode.test`, nombre: `Eve Ataques ${stamp}` };
const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo' };

// --- HTTP ------------------------------------------------------------------------------------

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * One request through nginx. Writes carry a same-origin Origin, as the web app's do, unless the
 * row's own headers say otherwise (a header set to null is left out).
 * @param {string} method
 * @param {string} path
 * @param {{cookie?: string, body?: unknown, headers?: Record<string, string | null>}} [options]
 */
async function call(method, path, { cookie, body, headers = {} } = {}) {
  /** @type {Record<string, string>} */
  const h = { Accept: 'application/json' };
  if (UNSAFE.has(method)) h.Origin = ORIGIN;
  if (cookie) h.Cookie = `${COOKIE}=${cookie}`;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) delete h[name];
    else h[name] = value;
  }
  const res = await fetch(new URL(path.replace(/^\//, ''), BASE_URL), {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, setCookies: res.headers.getSetCookie() };
}

/** The body of a 2xx answer; anything else fails the arrange step that asked. */
async function ok(method, path, options) {
  const res = await call(method, path, options);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.json;
}

// --- signing in through the dev chooser --------------------------------------------------------

// Sign-ins are limited per client address (SIGNIN_RATE 10/min, burst 10), and the next e2e file
// signs in too: count what this file takes, so it can give the bucket time to refill at the end.
const SIGN_IN_RATE_MS = 6_000;
let signInRequests = 0;
let firstSignInAt = 0;

/** A sign-in request (POST /api/sesion/dev or /api/sesion); a 429 waits for Retry-After. */
async function signInRequest(send) {
  for (let attempt = 0; ; attempt++) {
    if (!firstSignInAt) firstSignInAt = Date.now();
    const res = await send();
    if (res.status !== 429) signInRequests++; // a refusal with 429 takes no token
    if (res.status !== 429 || attempt >= 3) return res;
    const wait = Number(res.headers.get('Retry-After') || '6');
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 200));
  }
}

/** The code the chooser hands the popup for {nombre, email} ("Usar otra cuenta"). */
async function devCode({ nombre, email }) {
  const res = await signInRequest(async () => {
    const r = await fetch(new URL('api/sesion/dev', BASE_URL), {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ nombre, email }),
      redirect: 'manual',
    });
    return { status: r.status, headers: r.headers, text: await r.text() };
  });
  const code = /data-code="([^"]+)"/.exec(res.text)?.[1];
  assert.ok(res.status === 200 && code, `the chooser gives a code: ${res.status} ${res.text.slice(0, 300)}`);
  return code;
}

/** Exchanges a code as the web app does; returns the answer with its session cookie, if any. */
async function exchange(code, headers) {
  const res = await signInRequest(() => call('POST', '/api/sesion', { body: { code }, headers }));
  return { ...res, cookie: sessionCookie(res) };
}

function sessionCookie(res) {
  const set = res.setCookies.find((c) => c.startsWith(`${COOKIE}=`));
  return set ? set.slice(COOKIE.length + 1).split(';')[0] : undefined;
}

/** Signs a person in; returns {..., code, cookie, id}. */
async function signIn(person) {
  const code = await devCode(person);
  const res = await exchange(code);
  assert.equal(res.status, 200, `sign-in of ${person.email}: ${res.text}`);
  assert.ok(res.cookie, `sign-in of ${person.email} sets ${COOKIE}`);
  assert.equal(res.json.email, person.email);
  return { ...person, code, cookie: res.cookie, id: res.json.id, admin: res.json.admin };
}

// --- crafting tokens and codes (formats: services/platform/session/token.go, identity/devprovider.go)

const b64u = (s) => Buffer.from(s).toString('base64url');
const claimsOf = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
const macOf = (token) => token.slice(token.lastIndexOf('.') + 1);

/** "v1.<claims>.<mac>" with HMAC-SHA256 under key. */
function signToken(key, claims) {
  const body = `v1.${b64u(JSON.stringify(claims))}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/** The token's claims replaced, its MAC kept. */
const withClaims = (token, claims) => `v1.${b64u(JSON.stringify(claims))}.${macOf(token)}`;

/**
 * One character of the MAC changed. Not the last one: it also holds unused bits, and a change
 * there may decode to the same bytes.
 */
function flipMacChar(token) {
  const at = token.lastIndexOf('.') + 1;
  return token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
}

/** A dev sign-in code "dev.<payload>.<hex mac>" for payload, with the given MAC. */
const devCodeWith = (payload, mac) => `dev.${b64u(JSON.stringify(payload))}.${mac}`;

// --- the state that must not change ------------------------------------------------------------

const people = {}; // ana, bruno, admin after sign-in
let match; // the open match of this run
let brunoApuesta; // Bruno's prediction

/** Everything an attack could have changed, as seen by its owners and by anyone. */
async function snapshot() {
  const [brunoPreds, anaPreds, partidos, ...sesiones] = await Promise.all([
    call('GET', `/api/jugadores/${encodeURIComponent(BRUNO.email)}/apuestas`, { cookie: people.bruno.cookie }),
    call('GET', `/api/jugadores/${encodeURIComponent(ANA.email)}/apuestas`, { cookie: people.ana.cookie }),
    call('GET', '/api/partidos'),
    ...['ana', 'bruno', 'admin'].map((who) => call('GET', '/api/sesion', { cookie: people[who].cookie })),
  ]);
  const mine = partidos.json.find((p) => p.id === match.id);
  return {
    brunoPreds: [brunoPreds.status, brunoPreds.json],
    anaPreds: [anaPreds.status, anaPreds.json],
    match: mine,
    // Every other match as it stands, without `apostable`, which the clock alone may turn.
    partidos: partidos.json.map(({ apostable, ...rest }) => (rest.id === match.id ? { ...rest, apostable } : rest)),
    sesiones: sesiones.map((s) => [s.status, s.json]),
  };
}

let baseline;

async function assertNothingChanged(row) {
  const now = await snapshot();
  assert.deepEqual(now.brunoPreds, baseline.brunoPreds, `${row}: Bruno's predictions changed`);
  assert.deepEqual(now.anaPreds, [200, []], `${row}: Ana has predictions`);
  assert.deepEqual(now.match, baseline.match, `${row}: the match changed`);
  assert.equal(now.partidos.length, baseline.partidos.length, `${row}: the number of matches changed`);
  assert.deepEqual(now.partidos, baseline.partidos, `${row}: the matches changed`);
  assert.deepEqual(now.sesiones, baseline.sesiones, `${row}: a session changed`);
}

/** Every row of the standings, all pages. */
async function standings() {
  const rows = [];
  for (let pagina = 1; ; pagina++) {
    const page = await ok('GET', `/api/posiciones?pagina=${pagina}&por_pagina=100`);
    rows.push(...page.posiciones);
    if (rows.length >= page.total || page.posiciones.length === 0) return { total: page.total, rows };
  }
}

// Standings pages are cached in Redis for up to 60 s under a version that only results move
// (services/scoring/internal/standings/cache.go): a newly registered player can go unseen that
// long, by design. So the standings are read once, when every cached page is newer than the
// last sign-in attack.
const STANDINGS_PAGE_TTL_MS = 60_000;
let lastSignInAttackAt = 0;
let standingsChecked = false;

// --- running the rows --------------------------------------------------------------------------

let attempted = 0;
let refused = 0;

/**
 * A row: {name, method, path, body?, cookie?, headers?, status, error, send?}. `send` replaces the
 * plain request (sign-ins). The answer must be the refusal, as a JSON error with a request id and
 * no cookie set; then nothing may have changed.
 */
async function attack(t, row) {
  attempted++;
  await t.test(row.name, async () => {
    const res = row.send
      ? await row.send()
      : await call(row.method, row.path, { cookie: row.cookie, body: row.body, headers: row.headers });
    const what = `${row.name}: ${row.method} ${row.path} answered ${res.status} ${res.text}`;
    assert.equal(res.status, row.status, what);
    assert.match(res.headers.get('Content-Type') || '', /^application\/json/, what);
    assert.equal(res.json?.error, row.error, what);
    assert.ok(typeof res.json.mensaje === 'string' && res.json.mensaje.length > 0, `${what}: a message for people`);
    assert.ok(typeof res.json.request_id === 'string' && res.json.request_id.length > 0, `${what}: a request id`);
    assert.deepEqual(res.setCookies, [], `${what}: a refusal sets no cookie`);
    await assertNothingChanged(row.name);
    refused++;
  });
}

const apuestas = (email) => `/api/jugadores/${encodeURIComponent(email)}/apuestas`;
const prediction = (goles_local, goles_visitante, extra = {}) => ({ partido: match.id, goles_local, goles_visitante, ...extra });

describe('identity attacks through nginx are refused and change nothing', { timeout: 5 * 60_000 }, () => {
  before(async () => {
    people.ana = await signIn(ANA);
    people.bruno = await signIn(BRUNO);
    people.admin = await signIn(ADMIN);
    assert.equal(people.admin.admin, true, 'admin@prode.test is an organiser (ADMIN_EMAILS)');
    assert.equal(people.ana.admin, false);

    // The organiser creates an open match four days ahead, between two known teams.
    const equipos = await ok('GET', '/api/partidos/equipos');
    assert.ok(equipos.length >= 2, 'teams are seeded');
    const inicio = new Date(Date.now() + 4 * 24 * 3600_000);
    inicio.setUTCSeconds(0, 0);
    match = await ok('POST', '/api/partidos', {
      cookie: people.admin.cookie,
      body: {
        torneo: `Ataques ${stamp}`,
        nombre_categoria: 'Prueba de identidad',
        codigo_local: equipos[0].codigo,
        codigo_visitante: equipos[1].codigo,
        inicio: inicio.toISOString(),
        sede: 'Estadio de pruebas',
      },
    });
    assert.equal(match.apostable, true, 'the match takes predictions');
    // A tournament of its own, not the current one: it is listed when asked for by id.
    const unplayed = await ok('GET', `/api/partidos-sin-jugar?torneo=${match.torneo_id}`);
    assert.ok(unplayed.some((p) => p.id === match.id && p.apostable), 'the match is listed as open');

    brunoApuesta = await ok('POST', apuestas(BRUNO.email), { cookie: people.bruno.cookie, body: prediction(2, 1) });
    assert.equal(brunoApuesta.jugador, BRUNO.email);
    baseline = await snapshot();
    assert.deepEqual(baseline.brunoPreds[1].filter((a) => a.partido === match.id), [brunoApuesta]);
    assert.deepEqual(baseline.anaPreds, [200, []]);
    assert.deepEqual(
      baseline.sesiones.map(([status]) => status),
      [200, 200, 200],
    );
  });

  after(async () => {
    // Leave the sign-in bucket of this client address with room for the next e2e file's sign-ins
    // (four tokens: two people, two requests each).
    const spare = 4;
    const wait = (signInRequests - (10 - spare)) * SIGN_IN_RATE_MS - (Date.now() - firstSignInAt);
    if (firstSignInAt && wait > 0) {
      console.log(`identity matrix: waiting ${Math.ceil(wait / 1000)} s for the sign-in rate limit to refill`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  });

  it('forged and replayed sign-in codes register no one and set no cookie', async (t) => {
    const [, anaPayload, anaMac] = people.ana.code.split('.');
    const anaClaims = JSON.parse(Buffer.from(anaPayload, 'base64url').toString());
    // Eve's claims in Ana's code, its nonce included: only the MAC tells them apart.
    const eve = { ...anaClaims, email: EVE.email, nombre: EVE.nombre };
    // Ana's code, exchanged in the arrange step, is still unexpired: a refusal here is its single use.
    assert.ok(anaClaims.exp * 1000 > Date.now() + 5_000, "Ana's code is still valid for a while");
    for (const [name, code] of Object.entries({
      'a code for Eve with a made-up MAC': devCodeWith(eve, randomBytes(32).toString('hex')),
      "a code for Eve under Ana's MAC": devCodeWith(eve, anaMac),
      'a garbage code': `dev.${stamp}.garbage`,
      "Ana's genuine code, already exchanged, posted again": people.ana.code,
    })) {
      await attack(t, { name, method: 'POST', path: '/api/sesion', status: 401, error: 'credencial_invalida', send: () => exchange(code) });
    }
    lastSignInAttackAt = Date.now();
  });

  it("another player's e-mail, in the path or in the body", async (t) => {
    const { ana } = people;
    const id = brunoApuesta.id;
    for (const row of [
      { name: "Ana reads Bruno's predictions", method: 'GET', path: apuestas(BRUNO.email), status: 403, error: 'prohibido' },
      { name: "Ana reads Bruno's predictions, e-mail in capitals", method: 'GET', path: apuestas(BRUNO.email.toUpperCase()), status: 403, error: 'prohibido' },
      { name: "Ana predicts with Bruno's e-mail in the path", method: 'POST', path: apuestas(BRUNO.email), body: prediction(0, 5), status: 403, error: 'prohibido' },
      { name: "Ana predicts on her path with Bruno's e-mail in the body", method: 'POST', path: apuestas(ANA.email), body: prediction(0, 5, { jugador: BRUNO.email }), status: 403, error: 'prohibido' },
      { name: "Ana changes Bruno's prediction id through her own path", method: 'PUT', path: `${apuestas(ANA.email)}/${id}`, body: prediction(0, 5), status: 404, error: 'no_encontrado' },
      { name: "Ana changes Bruno's prediction id through Bruno's path", method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}`, body: prediction(0, 5), status: 403, error: 'prohibido' },
      { name: "Ana changes Bruno's prediction id with Bruno's e-mail in the body", method: 'PUT', path: `${apuestas(ANA.email)}/${id}`, body: prediction(0, 5, { jugador: BRUNO.email }), status: 403, error: 'prohibido' },
      { name: "Ana re-registers herself with Bruno's e-mail", method: 'POST', path: '/api/jugadores', body: { nombre: 'Bruno falso', email: BRUNO.email }, status: 403, error: 'prohibido' },
    ]) {
      await attack(t, { cookie: ana.cookie, ...row });
    }
  });

  it('no cookie, and forged cookies', async (t) => {
    const { ana, bruno, admin } = people;
    const id = brunoApuesta.id;
    const otherKey = randomBytes(32);
    const brunoClaims = claimsOf(bruno.cookie);
    const anaClaims = claimsOf(ana.cookie);
    const cookies = {
      'one character of the MAC changed': flipMacChar(bruno.cookie),
      "Ana's cookie saying Bruno (id and e-mail), MAC kept": withClaims(ana.cookie, { ...anaClaims, id: brunoClaims.id, email: brunoClaims.email }),
      "Bruno's session signed with another key": signToken(otherKey, brunoClaims),
      'no MAC': bruno.cookie.slice(0, bruno.cookie.lastIndexOf('.')),
      'an empty MAC': bruno.cookie.slice(0, bruno.cookie.lastIndexOf('.') + 1),
      'another version, MAC kept': bruno.cookie.replace(/^v1\./, 'v2.'),
    };
    /** @type {Array<Record<string, any>>} */
    const rows = [
      { name: 'no cookie: read', method: 'GET', path: apuestas(BRUNO.email) },
      { name: 'no cookie: predict', method: 'POST', path: apuestas(BRUNO.email), body: prediction(0, 5) },
      { name: 'no cookie: change', method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}`, body: prediction(0, 5) },
      { name: 'an empty cookie: predict', method: 'POST', path: apuestas(BRUNO.email), cookie: '', headers: { Cookie: `${COOKIE}=` }, body: prediction(0, 5) },
    ];
    for (const [forgery, cookie] of Object.entries(cookies)) {
      rows.push(
        { name: `${forgery}: session`, method: 'GET', path: '/api/sesion', cookie },
        { name: `${forgery}: read`, method: 'GET', path: apuestas(BRUNO.email), cookie },
        { name: `${forgery}: predict`, method: 'POST', path: apuestas(BRUNO.email), body: prediction(0, 5), cookie },
        { name: `${forgery}: change`, method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}`, body: prediction(0, 5), cookie },
      );
    }
    // Raising oneself to organiser: Ana's claims with admin true, under her MAC or another key.
    for (const [forgery, cookie] of Object.entries({
      "Ana's cookie with admin true, MAC kept": withClaims(ana.cookie, { ...anaClaims, admin: true }),
      "the organiser's session signed with another key": signToken(otherKey, claimsOf(admin.cookie)),
    })) {
      rows.push(
        { name: `${forgery}: create a match`, method: 'POST', path: '/api/partidos', body: newMatchBody(), cookie },
        { name: `${forgery}: enter a result`, method: 'PUT', path: `/api/partidos/${match.id}/resultado`, body: { goles_local: 1, goles_visitante: 0 }, cookie },
      );
    }
    for (const row of rows) await attack(t, { status: 401, error: 'no_autenticado', ...row });
  });

  it('cross-site writes with valid cookies', async (t) => {
    const { bruno, admin } = people;
    // Unused: Ana's first code was exchanged when she signed in, and codes are single-use.
    const anaCode = await devCode(ANA);
    const id = brunoApuesta.id;
    const crossSite = { 'Sec-Fetch-Site': 'cross-site' };
    for (const row of [
      { name: 'Bruno predicts from https://evil.example', method: 'POST', path: apuestas(BRUNO.email), headers: { Origin: EVIL } },
      { name: 'Bruno changes his prediction from https://evil.example', method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}`, headers: { Origin: EVIL } },
      { name: 'Bruno predicts with Sec-Fetch-Site: cross-site', method: 'POST', path: apuestas(BRUNO.email), headers: crossSite },
      { name: 'Bruno changes his prediction with Sec-Fetch-Site: cross-site and no Origin', method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}`, headers: { ...crossSite, Origin: null } },
      { name: 'Bruno predicts from Origin: null (a sandboxed frame)', method: 'POST', path: apuestas(BRUNO.email), headers: { Origin: 'null' } },
      { name: 'Bruno predicts from a look-alike origin', method: 'POST', path: apuestas(BRUNO.email), headers: { Origin: `${ORIGIN}.evil.example` } },
      // The game's own host over the other scheme: the request's Host matches, PUBLIC_ORIGIN does not.
      { name: "Bruno predicts from the game's host over the other scheme", method: 'POST', path: apuestas(BRUNO.email), headers: { Origin: otherScheme(ORIGIN) } },
    ].map((r) => ({ ...r, cookie: bruno.cookie, body: prediction(0, 5) }))) {
      await attack(t, { status: 403, error: 'origen_no_permitido', ...row });
    }
    for (const row of [
      { name: "Bruno renames himself from https://evil.example", method: 'POST', path: '/api/jugadores', cookie: bruno.cookie, body: { nombre: 'Bruno cambiado', email: BRUNO.email }, headers: { Origin: EVIL } },
      { name: "a cross-site 'Salir' for Bruno", method: 'DELETE', path: '/api/sesion', cookie: bruno.cookie, headers: { Origin: EVIL } },
      { name: 'the organiser creates a match from https://evil.example', method: 'POST', path: '/api/partidos', cookie: admin.cookie, body: newMatchBody(), headers: { Origin: EVIL } },
      { name: 'the organiser enters a result with Sec-Fetch-Site: cross-site', method: 'PUT', path: `/api/partidos/${match.id}/resultado`, cookie: admin.cookie, body: { goles_local: 1, goles_visitante: 0 }, headers: crossSite },
      { name: 'the organiser imports a tournament from https://evil.example', method: 'POST', path: '/api/partidos/importar', cookie: admin.cookie, body: { name: `Ataques ${stamp}`, matches: [] }, headers: { Origin: EVIL } },
      {
        // Login CSRF: a valid, unexpired, unused code (Ana's) posted from another site mints no session.
        name: "a valid sign-in code posted from https://evil.example",
        method: 'POST',
        path: '/api/sesion',
        send: () => call('POST', '/api/sesion', { body: { code: anaCode }, headers: { Origin: EVIL } }),
      },
    ]) {
      await attack(t, { status: 403, error: 'origen_no_permitido', ...row });
    }
  });

  it("a player and a stranger on the organiser's routes", async (t) => {
    const routes = [
      { name: 'create a match', method: 'POST', path: '/api/partidos', body: newMatchBody() },
      { name: 'enter a result', method: 'PUT', path: `/api/partidos/${match.id}/resultado`, body: { goles_local: 1, goles_visitante: 0 } },
      { name: 'remove a result', method: 'DELETE', path: `/api/partidos/${match.id}/resultado` },
      { name: 'reschedule', method: 'PUT', path: `/api/partidos/${match.id}/horario`, body: { inicio: new Date(Date.now() + 30 * 60_000).toISOString() } },
      { name: 'suspend', method: 'PUT', path: `/api/partidos/${match.id}/estado`, body: { estado: 'suspendido' } },
      { name: 'set the teams', method: 'PUT', path: `/api/partidos/${match.id}/equipos`, body: { codigo_local: match.codigo_visitante, codigo_visitante: match.codigo_local } },
      { name: 'import a tournament', method: 'POST', path: '/api/partidos/importar', body: { name: `Ataques ${stamp}`, matches: [] } },
    ];
    for (const route of routes) {
      await attack(t, { ...route, name: `Ana (a player): ${route.name}`, cookie: people.ana.cookie, status: 403, error: 'prohibido' });
      await attack(t, { ...route, name: `no cookie: ${route.name}`, status: 401, error: 'no_autenticado' });
    }
  });

  it("Bruno's cookie replayed after 'Salir'", async (t) => {
    const old = people.bruno.cookie;
    const out = await call('DELETE', '/api/sesion', { cookie: old });
    assert.equal(out.status, 204, `'Salir': ${out.status} ${out.text}`);
    assert.ok(out.setCookies.some((c) => c.startsWith(`${COOKIE}=;`)), "'Salir' clears the cookie");
    // Bruno signs in again: the checks after each row read his predictions with the new session.
    const again = await signIn(BRUNO);
    assert.notEqual(again.cookie, old);
    assert.equal(again.id, people.bruno.id, 'the same player, not a second one');
    people.bruno = again;
    const id = brunoApuesta.id;
    for (const row of [
      { name: "after 'Salir': the session", method: 'GET', path: '/api/sesion' },
      { name: "after 'Salir': read his predictions", method: 'GET', path: apuestas(BRUNO.email) },
      { name: "after 'Salir': predict", method: 'POST', path: apuestas(BRUNO.email), body: prediction(0, 5) },
      { name: "after 'Salir': change his prediction", method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}`, body: prediction(0, 5) },
      { name: "after 'Salir': rename himself", method: 'POST', path: '/api/jugadores', body: { nombre: 'Bruno cambiado', email: BRUNO.email } },
      { name: "after 'Salir': 'Salir' again", method: 'DELETE', path: '/api/sesion' },
    ]) {
      await attack(t, { ...row, cookie: old, status: 401, error: 'no_autenticado' });
    }
  });

  it('the standings: nobody registered or renamed', async () => {
    const wait = lastSignInAttackAt + STANDINGS_PAGE_TTL_MS + 2_000 - Date.now();
    if (wait > 0) {
      console.log(`identity matrix: waiting ${Math.ceil(wait / 1000)} s until no cached standings page predates the attacks`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const { total, rows } = await standings();
    assert.equal(rows.length, total);
    // Every name this run could have registered carries the stamp: only Ana and Bruno, once each.
    const ours = rows.filter((p) => p.nombre.includes(stamp)).map((p) => [p.id, p.nombre]);
    assert.deepEqual(
      ours.sort((a, b) => a[0] - b[0]),
      [[people.ana.id, ANA.nombre], [people.bruno.id, BRUNO.nombre]].sort((a, b) => a[0] - b[0]),
    );
    assert.ok(!rows.some((p) => p.nombre === EVE.nombre), 'Eve was registered');
    assert.equal(rows.filter((p) => p.id === people.admin.id).map((p) => p.nombre).join(), ADMIN.nombre);
    standingsChecked = true;
  });

  it('prints the summary', () => {
    assert.equal(refused, attempted, `${attempted - refused} of ${attempted} attacks were not refused cleanly (see above)`);
    assert.ok(refused >= 60, `only ${refused} attacks ran`);
    assert.ok(standingsChecked, 'the standings were checked');
    console.log(`identity matrix: ${refused} attacks refused, nothing changed`);
  });
});

/** A valid body for POST /api/partidos: refused only for who sends it. */
function newMatchBody() {
  return {
    torneo: `Ataques ${stamp}`,
    nombre_categoria: 'Intruso',
    codigo_local: match.codigo_local,
    codigo_visitante: match.codigo_visitante,
    inicio: new Date(Date.now() + 5 * 24 * 3600_000).toISOString(),
  };
}
