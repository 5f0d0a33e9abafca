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
// Then the classes an outside probe found missing (issue 15), each row refused in the API's error
// shape and nothing changed: NUL and control characters in every text field of every write body
// and in path and query parameters, and numbers past any integer there (a 400, or the route's own
// refusal: another player's e-mail is still 403; never a 5xx); content-type tricks on every write
// route (text/plain, form-encoded, multipart, none, UTF-16, a byte order mark, a key twice, huge
// numbers), and cross-site form posts carrying the session cookie; bodies over the limit (a JSON
// 413, from the service or from nginx itself). And three scenarios over HTTP: a cut-off race
// (concurrent saves by two players around a match's cut-off: by the database's clock every save
// after it is refused with apuesta_cerrada and the stored prediction is one accepted before it),
// and the write and sign-in limits with a forged X-Forwarded-For on every request (rotating it
// resets neither).
//
// Issue 16's routes too: Ana's league read, renamed, emptied, re-coded or deleted by Bruno, who
// is not in it (its table included), made-up and altered invite codes, a join from another site,
// control characters in a league's name; another player's bonus answer before the lock (the
// counts are hidden from everyone, the organiser included, and nobody's view carries it), and
// the organiser's question routes as a player and as a stranger. The snapshot then also holds
// Ana's league as she sees it and the question as Bruno and the organiser see it.
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
// The cut-off race's players (Carla then drains her write allowance).
const CARLA = { email: `carla-${stamp}@prode.test`, nombre: `Carla Carrera ${stamp}` };
const DANI = { email: `dani-${stamp}@prode.test`, nombre: `Dani Carrera ${stamp}` };
const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo' };

// --- HTTP ------------------------------------------------------------------------------------

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * One request through nginx. Writes carry a same-origin Origin, as the web app's do, unless the
 * row's own headers say otherwise (a header set to null is left out). `body` is sent as JSON;
 * `raw` as the bytes it is, with only the Content-Type that the headers give.
 * @param {string} method
 * @param {string} path
 * @param {{cookie?: string, body?: unknown, raw?: Buffer, headers?: Record<string, string | null>}} [options]
 */
async function call(method, path, { cookie, body, raw, headers = {} } = {}) {
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
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
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
const SIGN_IN_BURST = 10;
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
  const [grupos, pregunta] = await Promise.all([grupoSnapshot(), preguntaSnapshot()]);
  const [fijados, brunoPreds, anaPreds, partidos, ataques, torneos, ...sesiones] = await Promise.all([
    // Issue 20: Ana's pins, which nobody else may read or change.
    call('GET', '/api/posiciones/fijados', { cookie: people.ana.cookie }),
    call('GET', `/api/jugadores/${encodeURIComponent(BRUNO.email)}/apuestas`, { cookie: people.bruno.cookie }),
    call('GET', `/api/jugadores/${encodeURIComponent(ANA.email)}/apuestas`, { cookie: people.ana.cookie }),
    call('GET', '/api/partidos'),
    // The match lives in a tournament of its own, not the current one that /api/partidos lists.
    call('GET', `/api/partidos?torneo=${match.torneo_id}`),
    // Every tournament with its number of matches and results: nothing created, nothing scored.
    call('GET', '/api/torneos'),
    ...['ana', 'bruno', 'admin'].map((who) => call('GET', '/api/sesion', { cookie: people[who].cookie })),
  ]);
  return {
    brunoPreds: [brunoPreds.status, brunoPreds.json],
    anaPreds: [anaPreds.status, anaPreds.json],
    match: ataques.json.find((p) => p.id === match.id),
    ataques: ataques.json,
    // The current tournament's matches as they stand, without `apostable`, which the clock alone may turn.
    partidos: partidos.json.map(({ apostable, ...rest }) => rest),
    torneos: torneos.json,
    sesiones: sesiones.map((s) => [s.status, s.json]),
    grupos,
    pregunta,
    fijados: [fijados.status, fijados.json],
  };
}

// Issue 16: Ana's league and the matrix's bonus question, once the rows about them made them.
let liga; // {id, codigo}
let pregunta; // the organiser's question in the matrix's tournament

/** Ana's leagues in the matrix's tournament and hers as its owner sees it, with its members. */
async function grupoSnapshot() {
  if (!liga) return null;
  const cookie = people.ana.cookie;
  const [mios, grupo, miembros, tabla] = await Promise.all([
    call('GET', `/api/grupos?torneo=${match.torneo_id}`, { cookie }),
    call('GET', `/api/grupos/${liga.id}`, { cookie }),
    call('GET', `/api/grupos/${liga.id}/miembros?pagina=1`, { cookie }),
    call('GET', `/api/grupos/${liga.id}/posiciones?pagina=1&por_pagina=100`, { cookie }),
  ]);
  return {
    mios: [mios.status, mios.json],
    grupo: [grupo.status, grupo.json],
    miembros: [miembros.status, miembros.json],
    tabla: [tabla.status, tabla.json?.posiciones?.map((r) => [r.id, r.puntaje])],
  };
}

/** The matrix's bonus question as Bruno (who answered it) and the organiser see it. */
async function preguntaSnapshot() {
  if (!pregunta) return null;
  const [deBruno, admin] = await Promise.all([
    call('GET', `/api/preguntas?torneo=${match.torneo_id}`, { cookie: people.bruno.cookie }),
    call('GET', `/api/torneos/${match.torneo_id}/preguntas`, { cookie: people.admin.cookie }),
  ]);
  return {
    deBruno: [deBruno.status, deBruno.json?.map(({ cerrada, ...rest }) => rest)],
    admin: [admin.status, admin.json],
  };
}

let baseline;

async function assertNothingChanged(row) {
  const now = await snapshot();
  try {
    assert.deepEqual(now.brunoPreds, baseline.brunoPreds, `${row}: Bruno's predictions changed`);
    assert.deepEqual(now.anaPreds, [200, []], `${row}: Ana has predictions`);
    assert.ok(now.match, `${row}: the match is gone`);
    assert.deepEqual(now.match, baseline.match, `${row}: the match changed`);
    assert.deepEqual(now.ataques, baseline.ataques, `${row}: the matches of its tournament changed`);
    assert.equal(now.partidos.length, baseline.partidos.length, `${row}: the number of matches changed`);
    assert.deepEqual(now.partidos, baseline.partidos, `${row}: the matches changed`);
    assert.deepEqual(now.torneos, baseline.torneos, `${row}: the tournaments changed`);
    assert.deepEqual(now.sesiones, baseline.sesiones, `${row}: a session changed`);
  } catch (err) {
    baseline = now; // the rows that follow are judged on their own, not on this one's change
    throw err;
  }
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

// Each player's prediction writes are limited (the predictions service's WRITE_RATE, 5/s): the
// rows keep a player's writes under it, so that each refusal is the row's, not the limit's.
const WRITE_INTERVAL_MS = 250;
const lastWriteAt = new Map();

async function paceWrites(row) {
  if (!row.cookie || !UNSAFE.has(row.method) || !/^\/api\/jugadores\/[^/]+\/apuestas/.test(row.path)) return;
  const wait = (lastWriteAt.get(row.cookie) ?? 0) + WRITE_INTERVAL_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastWriteAt.set(row.cookie, Date.now());
}

/**
 * A row: {name, method, path, body?, raw?, cookie?, headers?, status, error, allowed?, send?,
 * check?}. `send` replaces the plain request (sign-ins). The answer must be the refusal (status
 * and error, or one of `allowed`'s [status, error] pairs), as a JSON error with a request id and
 * no cookie set, unless `check` judges the answer instead; then nothing may have changed.
 */
async function attack(t, row) {
  attempted++;
  await t.test(row.name, async () => {
    await paceWrites(row);
    const res = row.send
      ? await row.send()
      : await call(row.method, row.path, { cookie: row.cookie, body: row.body, raw: row.raw, headers: row.headers });
    const what = `${row.name}: ${row.method} ${row.path.slice(0, 120)} answered ${res.status} ${res.text.slice(0, 300)}`;
    try {
      if (row.check) row.check(res, what);
      else assertRefused(res, what, row.allowed ?? [[row.status, row.error]]);
    } catch (err) {
      baseline = await snapshot(); // whatever this row changed is not the next row's doing
      throw err;
    }
    await assertNothingChanged(row.name);
    refused++;
  });
}

/** The answer is one of the allowed refusals, in the API's error shape, and sets no cookie. */
function assertRefused(res, what, allowed) {
  assert.ok(res.status < 500, `${what}: a server error`);
  assert.ok(
    allowed.some(([status, error]) => res.status === status && res.json?.error === error),
    `${what}: want ${allowed.map((a) => a.join(' ')).join(' or ')}`,
  );
  assert.match(res.headers.get('Content-Type') || '', /^application\/json/, what);
  assert.ok(typeof res.json.mensaje === 'string' && res.json.mensaje.length > 0, `${what}: a message for people`);
  assert.ok(typeof res.json.request_id === 'string' && res.json.request_id.length > 0, `${what}: a request id`);
  assert.deepEqual(res.setCookies, [], `${what}: a refusal sets no cookie`);
}

/** A scenario of several requests, counted as one attack when all of it holds. */
async function scenario(t, name, fn) {
  attempted++;
  await t.test(name, async () => {
    await fn();
    refused++;
  });
}

const apuestas = (email) => `/api/jugadores/${encodeURIComponent(email)}/apuestas`;

// Characters no text field takes: NUL (which PostgreSQL cannot store in text), a line break (a
// forged log line), ESC (terminal escapes) and a C1 control.
const CONTROL = { NUL: '\u0000', 'a line feed': '\n', ESC: '\u001b', 'NEL (a C1 control)': '\u0085' };

// The cut-off race: the cut-off RACE_LEAD_MS after the kick-off is set, rounds every
// RACE_ROUND_MS (two saves per player: 5/s, WRITE_RATE) until RACE_AFTER_MS past it.
const RACE_LEAD_MS = 5_000;
const RACE_ROUND_MS = 400;
const RACE_AFTER_MS = 3_000;
const RACE_CLOCK_SLACK_MS = 1_500;

/** Headers that claim the request comes from the nth of many addresses (none of them true). */
function forgedAddress(n) {
  const a = (n % 250) + 1;
  return {
    'X-Forwarded-For': `198.51.100.${a}, 2001:db8:${n.toString(16)}::1`,
    'X-Real-IP': `203.0.113.${a}`,
    Forwarded: `for=192.0.2.${a}`,
  };
}

/** A 429 in the API's shape, with Retry-After. */
function assertTooMany(res, what) {
  assert.equal(res.status, 429, `${what}: ${res.status} ${res.text}`);
  assert.equal(res.json?.error, 'demasiadas_solicitudes', `${what}: ${res.text}`);
  assert.ok(Number(res.headers.get('Retry-After')) >= 1, `${what}: no Retry-After`);
  assert.deepEqual(res.setCookies, [], `${what}: a cookie was set`);
}

/**
 * Ten requests at once from ten more forged addresses, right after the limit answered 429: had
 * each address a bucket of its own, all ten would pass; the bucket's refill may let one or two.
 * Returns the ten answers: a save the refill let through is stored like any other.
 */
async function assertMostlyLimited(send) {
  const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => send(n)));
  const limited = answers.filter((res) => res.status === 429);
  limited.forEach((res, n) => assertTooMany(res, `request ${n} of ten`));
  assert.ok(limited.length >= 8, `only ${limited.length} of ten requests from new forged addresses were limited: ${answers.map((r) => r.status)}`);
  return answers;
}
/**
 * As the organiser, a match between the seeded teams at `teams` (two indexes) in the tournament
 * named torneo (made by this call when new), kicking off at inicio (default: in 4 days): the
 * match as the API answers it. Each arrange step takes teams of its own.
 */
async function createMatch(admin, { torneo, nombre_categoria, teams: [local, visitante], inicio = new Date(Date.now() + 4 * 24 * 3600_000), sede }) {
  const equipos = await ok('GET', '/api/partidos/equipos');
  assert.ok(equipos.length > Math.max(local, visitante), 'teams are seeded');
  return ok('POST', '/api/partidos', {
    cookie: admin.cookie,
    body: {
      torneo,
      nombre_categoria,
      codigo_local: equipos[local].codigo,
      codigo_visitante: equipos[visitante].codigo,
      inicio: inicio.toISOString(),
      sede,
    },
  });
}
const prediction = (goles_local, goles_visitante, extra = {}) => ({ partido: match.id, goles_local, goles_visitante, ...extra });

describe('identity attacks through nginx are refused and change nothing', { timeout: 12 * 60_000 }, () => {
  before(async () => {
    people.ana = await signIn(ANA);
    people.bruno = await signIn(BRUNO);
    people.admin = await signIn(ADMIN);
    assert.equal(people.admin.admin, true, 'admin@prode.test is an organiser (ADMIN_EMAILS)');
    assert.equal(people.ana.admin, false);

    // The organiser creates an open match four days ahead, between two known teams.
    const inicio = new Date(Date.now() + 4 * 24 * 3600_000);
    inicio.setUTCSeconds(0, 0);
    match = await createMatch(people.admin, {
      torneo: `Ataques ${stamp}`,
      nombre_categoria: 'Prueba de identidad',
      teams: [0, 1],
      inicio,
      sede: 'Estadio de pruebas',
    });
    assert.equal(match.apostable, true, 'the match takes predictions');
    // A tournament of its own, not the current one: it is listed when asked for by id.
    const unplayed = await ok('GET', `/api/partidos-sin-jugar?torneo=${match.torneo_id}`);
    assert.ok(unplayed.some((p) => p.id === match.id && p.apostable), 'the match is listed as open');

    brunoApuesta = await ok('POST', apuestas(BRUNO.email), { cookie: people.bruno.cookie, body: prediction(2, 1) });
    assert.equal(brunoApuesta.jugador, BRUNO.email);
    baseline = await snapshot();
    assert.ok(baseline.match, "the match is listed in its tournament's matches");
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
    const wait = (signInRequests - (SIGN_IN_BURST - spare)) * SIGN_IN_RATE_MS - (Date.now() - firstSignInAt);
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

  it("leagues (issue 16): someone else's league, a non-member reading a league's table, codes", async (t) => {
    const { ana, bruno } = people;
    // Arrange: Ana's league in the matrix's tournament; Bruno is not in it.
    const grupo = await ok('POST', '/api/grupos', { cookie: ana.cookie, body: { nombre: `Liga de Ana ${stamp}`, torneo: match.torneo_id } });
    liga = { id: grupo.id, codigo: grupo.codigo };
    assert.equal(typeof liga.codigo, 'string', 'the owner sees the code');
    baseline = await snapshot();
    assert.deepEqual(baseline.grupos.grupo[0], 200);

    const NO_MIEMBRO = [403, 'no_es_miembro'];
    const SOLO_DUENO = [403, 'solo_dueno'];
    const INVALID = [400, 'datos_invalidos'];
    const NONE = [401, 'no_autenticado'];
    const g = `/api/grupos/${liga.id}`;
    const rows = [
      { name: "Bruno reads Ana's league", method: 'GET', path: g, allowed: [NO_MIEMBRO] },
      { name: "Bruno reads Ana's league's table (a non-member)", method: 'GET', path: `${g}/posiciones?pagina=1&por_pagina=100`, allowed: [NO_MIEMBRO] },
      { name: "Bruno reads Ana's league's members", method: 'GET', path: `${g}/miembros?pagina=1`, allowed: [NO_MIEMBRO] },
      { name: "Bruno reads his board of Ana's league (a non-member)", method: 'GET', path: `${g}/tablero`, allowed: [NO_MIEMBRO] },
      { name: "Bruno reads rows of Ana's league's table (a non-member)", method: 'GET', path: `${g}/filas?desde=1&cantidad=10`, allowed: [NO_MIEMBRO] },
      { name: "no cookie: a league's board", method: 'GET', path: `${g}/tablero`, cookie: null, allowed: [NONE] },
      { name: "Bruno renames Ana's league", method: 'PATCH', path: g, body: { nombre: 'Tomada' }, allowed: [NO_MIEMBRO, SOLO_DUENO] },
      { name: "Bruno deletes Ana's league", method: 'DELETE', path: g, allowed: [NO_MIEMBRO, SOLO_DUENO] },
      { name: "Bruno makes a new code for Ana's league", method: 'POST', path: `${g}/codigo`, allowed: [NO_MIEMBRO, SOLO_DUENO] },
      { name: "Bruno revokes Ana's league's code", method: 'DELETE', path: `${g}/codigo`, allowed: [NO_MIEMBRO, SOLO_DUENO] },
      { name: 'Bruno removes Ana from her league', method: 'DELETE', path: `${g}/miembros/${ana.id}`, allowed: [NO_MIEMBRO, SOLO_DUENO] },
      { name: 'Bruno joins with a made-up code', method: 'POST', path: '/api/grupos/unirse', body: { codigo: randomBytes(16).toString('base64url') }, allowed: [[404, 'invitacion_invalida']] },
      { name: 'Bruno joins with the code, one character changed', method: 'POST', path: '/api/grupos/unirse', body: { codigo: (liga.codigo[0] === 'A' ? 'B' : 'A') + liga.codigo.slice(1) }, allowed: [[404, 'invitacion_invalida']] },
      { name: "Bruno joins Ana's league from https://evil.example", method: 'POST', path: '/api/grupos/unirse', body: { codigo: liga.codigo }, headers: { Origin: EVIL }, allowed: [[403, 'origen_no_permitido']] },
      { name: 'no cookie: my leagues', method: 'GET', path: `/api/grupos?torneo=${match.torneo_id}`, cookie: null, allowed: [NONE] },
      { name: 'no cookie: create a league', method: 'POST', path: '/api/grupos', cookie: null, body: { nombre: 'Nadie' }, allowed: [NONE] },
      { name: 'no cookie: join with a valid code', method: 'POST', path: '/api/grupos/unirse', cookie: null, body: { codigo: liga.codigo }, allowed: [NONE] },
      { name: "no cookie: a league's table", method: 'GET', path: `${g}/posiciones`, cookie: null, allowed: [NONE] },
      { name: "no cookie: remove a league's member", method: 'DELETE', path: `${g}/miembros/${ana.id}`, cookie: null, allowed: [NONE] },
    ];
    // A league's name with control characters.
    for (const [char, c] of Object.entries(CONTROL)) {
      rows.push(
        { name: `Ana creates a league, ${char} in its name`, method: 'POST', path: '/api/grupos', cookie: ana.cookie, body: { nombre: `Liga${c}mala`, torneo: match.torneo_id }, allowed: [INVALID] },
        { name: `Ana renames her league, ${char} in its name`, method: 'PATCH', path: g, cookie: ana.cookie, body: { nombre: `Liga${c}mala` }, allowed: [INVALID] },
      );
    }
    for (const row of rows) await attack(t, { ...row, cookie: row.cookie === null ? undefined : (row.cookie ?? bruno.cookie) });
  });

  it("pins (issue 20): someone else's pins cannot be read or changed; pins of oneself or nobody", async (t) => {
    const { ana, bruno } = people;
    // Arrange: Ana pins Bruno; Bruno pins nobody.
    await ok('PUT', `/api/posiciones/fijados/${bruno.id}`, { cookie: ana.cookie });
    baseline = await snapshot();
    assert.deepEqual(baseline.fijados, [200, [{ id: bruno.id, nombre: BRUNO.nombre }]]);

    const INVALID = [400, 'datos_invalidos'];
    const NONE = [401, 'no_autenticado'];
    const hisOwn = (status, body) => (res, what) => {
      assert.equal(res.status, status, what);
      if (body) body(res.json, what);
    };
    const rows = [
      // The player is the session's: an id in the query or the path names whom to pin, never whose pins.
      { name: "Bruno reads pins naming Ana in the query", method: 'GET', path: `/api/posiciones/fijados?jugador=${ana.id}`, check: hisOwn(200, (json, what) => assert.deepEqual(json, [], what)) },
      { name: "Bruno unpins Ana's pin of him (his own list: nothing to unpin)", method: 'DELETE', path: `/api/posiciones/fijados/${bruno.id}`, check: hisOwn(204) },
      { name: "Bruno reads the board naming Ana in the query", method: 'GET', path: `/api/posiciones/tablero?jugador=${ana.id}`,
        check: hisOwn(200, (json, what) => {
          assert.equal(json.filas.find((f) => f.motivos.includes('yo'))?.id, bruno.id, `${what}: the board is his`);
          assert.ok(json.filas.every((f) => !f.motivos.includes('fijado')), `${what}: none of Ana's pins`);
        }) },
      { name: 'Bruno pins himself', method: 'PUT', path: `/api/posiciones/fijados/${bruno.id}`, allowed: [INVALID] },
      { name: 'Bruno pins a player who does not exist', method: 'PUT', path: `/api/posiciones/fijados/${2 ** 31 - 1}`, allowed: [[404, 'no_encontrado']] },
      { name: 'Bruno pins a player named by text', method: 'PUT', path: '/api/posiciones/fijados/ana', allowed: [INVALID] },
      { name: 'Bruno pins Ana from https://evil.example', method: 'PUT', path: `/api/posiciones/fijados/${ana.id}`, headers: { Origin: EVIL }, allowed: [[403, 'origen_no_permitido']] },
      { name: 'no cookie: the pins', method: 'GET', path: '/api/posiciones/fijados', cookie: null, allowed: [NONE] },
      { name: 'no cookie: pin a player', method: 'PUT', path: `/api/posiciones/fijados/${bruno.id}`, cookie: null, allowed: [NONE] },
      { name: "no cookie: unpin Ana's pin", method: 'DELETE', path: `/api/posiciones/fijados/${bruno.id}`, cookie: null, allowed: [NONE] },
      { name: 'no cookie: the board', method: 'GET', path: '/api/posiciones/tablero', cookie: null, allowed: [NONE] },
    ];
    for (const row of rows) await attack(t, { ...row, cookie: row.cookie === null ? undefined : (row.cookie ?? bruno.cookie) });
  });

  it("bonus questions (issue 16): another player's answer before the lock, the organiser's routes", async (t) => {
    const { ana, bruno, admin } = people;
    // Arrange: the organiser's question in the matrix's tournament, open for days; Bruno answers it.
    pregunta = await ok('POST', `/api/torneos/${match.torneo_id}/preguntas`, {
      cookie: admin.cookie,
      body: { texto: `¿Campeón? ${stamp}`, puntos: 10, cierre: null, opciones: ['Uno', 'Dos', 'Tres'] },
    });
    const [uno, dos] = pregunta.opciones;
    await ok('PUT', `/api/preguntas/${pregunta.id}/respuesta`, { cookie: bruno.cookie, body: { opcion: dos.id } });
    baseline = await snapshot();
    // Ana's view of the question carries her answer (none), never Bruno's.
    const deAna = await ok('GET', `/api/preguntas?torneo=${match.torneo_id}`, { cookie: ana.cookie });
    assert.equal(deAna.find((p) => p.id === pregunta.id).mi_respuesta, null, "Ana's view carries no one else's answer");

    const INVALID = [400, 'datos_invalidos'];
    const NONE = [401, 'no_autenticado'];
    const rows = [
      { name: 'Ana reads the answers to the question before its lock', method: 'GET', path: `/api/preguntas/${pregunta.id}/respuestas`, cookie: ana.cookie, allowed: [[409, 'respuestas_ocultas']] },
      { name: 'the organiser reads the answers before the lock', method: 'GET', path: `/api/preguntas/${pregunta.id}/respuestas`, cookie: admin.cookie, allowed: [[409, 'respuestas_ocultas']] },
      { name: 'Ana answers with an option of no question', method: 'PUT', path: `/api/preguntas/${pregunta.id}/respuesta`, cookie: ana.cookie, body: { opcion: 2 ** 31 - 1 }, allowed: [INVALID, [404, 'no_encontrado']] },
      { name: "Ana answers with Bruno's id in the body", method: 'PUT', path: `/api/preguntas/${pregunta.id}/respuesta`, cookie: ana.cookie, body: { opcion: uno.id, jugador: bruno.id }, allowed: [INVALID, [403, 'prohibido']] },
      { name: 'Bruno changes his answer from https://evil.example', method: 'PUT', path: `/api/preguntas/${pregunta.id}/respuesta`, cookie: bruno.cookie, body: { opcion: uno.id }, headers: { Origin: EVIL }, allowed: [[403, 'origen_no_permitido']] },
      { name: 'no cookie: answer a question', method: 'PUT', path: `/api/preguntas/${pregunta.id}/respuesta`, body: { opcion: uno.id }, allowed: [NONE] },
      { name: "no cookie: the question's answers", method: 'GET', path: `/api/preguntas/${pregunta.id}/respuestas`, allowed: [NONE] },
    ];
    // The organiser's question routes, as a player and as a stranger.
    const q = `/api/torneos/${match.torneo_id}/preguntas`;
    for (const route of [
      { name: 'list the questions with their right answers', method: 'GET', path: q },
      { name: 'create a question', method: 'POST', path: q, body: { texto: 'Intrusa', puntos: 10, cierre: null, opciones: ['a', 'b'] } },
      { name: 'enter a right answer', method: 'PUT', path: `${q}/${pregunta.id}/respuesta`, body: { opciones: [dos.id] } },
      { name: 'clear a right answer', method: 'DELETE', path: `${q}/${pregunta.id}/respuesta` },
    ]) {
      rows.push(
        { ...route, name: `Ana (a player): ${route.name}`, cookie: ana.cookie, allowed: [[403, 'prohibido']] },
        { ...route, name: `no cookie: ${route.name}`, allowed: [NONE] },
      );
    }
    for (const row of rows) await attack(t, row);
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

  it('bodies over the limit: a JSON 413, from the service or from nginx', async (t) => {
    const { bruno, admin } = people;
    const relleno = (bytes) => 'x'.repeat(bytes);
    for (const row of [
      // Over the services' limit (16 KiB on most routes, 2 MiB for a tournament file): the service refuses it.
      { name: 'Bruno predicts with a 64 KiB body', method: 'POST', path: apuestas(BRUNO.email), cookie: bruno.cookie, body: prediction(0, 5, { relleno: relleno(64 << 10) }) },
      { name: 'Bruno renames himself with a 64 KiB body', method: 'POST', path: '/api/jugadores', cookie: bruno.cookie, body: { nombre: 'Bruno cambiado', email: BRUNO.email, relleno: relleno(64 << 10) } },
      { name: 'the organiser imports a 2.5 MiB tournament file', method: 'POST', path: '/api/partidos/importar', cookie: admin.cookie, body: { name: `Ataques ${stamp}`, matches: [], relleno: relleno(2.5 * 2 ** 20) } },
      // Over nginx's own limit (3 MiB): nginx refuses it, in the same shape.
      { name: 'Bruno predicts with a 4 MiB body', method: 'POST', path: apuestas(BRUNO.email), cookie: bruno.cookie, body: prediction(0, 5, { relleno: relleno(4 << 20) }) },
      { name: 'the organiser imports a 4 MiB tournament file', method: 'POST', path: '/api/partidos/importar', cookie: admin.cookie, body: { name: `Ataques ${stamp}`, matches: [], relleno: relleno(4 << 20) } },
    ]) {
      await attack(t, { ...row, status: 413, error: 'cuerpo_demasiado_grande' });
    }
  });

  it('content-type tricks on every write route, and cross-site forms with the session cookie', async (t) => {
    const { bruno, admin } = people;
    const anaCode = await devCode(ANA); // unused: a row that let it through would sign Ana in
    const actual = (await ok('GET', '/api/torneos')).find((x) => x.actual);
    const id = brunoApuesta.id;
    // Every write route with a body, with a body it would take from whom sends it.
    const routes = [
      { name: 'sign in', method: 'POST', path: '/api/sesion', body: { code: anaCode }, signIn: true },
      { name: 'Bruno renames himself', method: 'POST', path: '/api/jugadores', cookie: bruno.cookie, body: { nombre: 'Bruno cambiado', email: BRUNO.email } },
      { name: 'Bruno predicts', method: 'POST', path: apuestas(BRUNO.email), cookie: bruno.cookie, body: prediction(0, 5) },
      { name: 'Bruno changes his prediction', method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}`, cookie: bruno.cookie, body: prediction(0, 5) },
      { name: 'the organiser creates a match', method: 'POST', path: '/api/partidos', cookie: admin.cookie, body: newMatchBody() },
      { name: 'the organiser imports a tournament', method: 'POST', path: '/api/partidos/importar', cookie: admin.cookie, body: { name: `Ataques ${stamp}`, matches: [] } },
      { name: 'the organiser reschedules', method: 'PUT', path: `/api/partidos/${match.id}/horario`, cookie: admin.cookie, body: { inicio: new Date(Date.now() + 30 * 60_000).toISOString() } },
      { name: 'the organiser sets the teams', method: 'PUT', path: `/api/partidos/${match.id}/equipos`, cookie: admin.cookie, body: { codigo_local: match.codigo_visitante, codigo_visitante: match.codigo_local } },
      { name: 'the organiser suspends', method: 'PUT', path: `/api/partidos/${match.id}/estado`, cookie: admin.cookie, body: { estado: 'suspendido' } },
      { name: 'the organiser enters a result', method: 'PUT', path: `/api/partidos/${match.id}/resultado`, cookie: admin.cookie, body: { goles_local: 1, goles_visitante: 0 } },
      { name: 'the organiser removes a result', method: 'DELETE', path: `/api/partidos/${match.id}/resultado`, cookie: admin.cookie, body: { forzar: true } },
      // The current tournament chosen again: were it taken, nothing else in the stack would move.
      ...(actual ? [{ name: 'the organiser chooses the current tournament', method: 'PUT', path: '/api/torneos/actual', cookie: admin.cookie, body: { torneo: actual.id } }] : []),
    ];
    const json = (body) => JSON.stringify(body);
    /** The body with its first integer field (else its first field) set to a number literal. */
    const withNumber = (body, literal) => {
      const [key] = Object.entries(body).find(([, v]) => typeof v === 'number') ?? Object.entries(body)[0];
      return json({ ...body, [key]: 'HUGE_NUMBER' }).replace('"HUGE_NUMBER"', literal);
    };
    const formFields = (body) => Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : json(v)]);
    const multipart = (body) =>
      formFields(body).map(([k, v]) => `--prode\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') + '--prode--\r\n';
    const UNSUPPORTED = [415, 'tipo_no_soportado'];
    const INVALID = [400, 'datos_invalidos'];
    /** [name, Content-Type (null: none), body bytes, refusal] */
    const tricks = [
      ['text/plain', 'text/plain;charset=UTF-8', (b) => Buffer.from(json(b)), UNSUPPORTED],
      ['form-encoded', 'application/x-www-form-urlencoded', (b) => Buffer.from(new URLSearchParams(formFields(b)).toString()), UNSUPPORTED],
      ['multipart', 'multipart/form-data; boundary=prode', (b) => Buffer.from(multipart(b)), UNSUPPORTED],
      ['no Content-Type', null, (b) => Buffer.from(json(b)), UNSUPPORTED],
      // JSON is UTF-8: a body in UTF-16, labelled so, is refused rather than misread.
      ['UTF-16', 'application/json; charset=utf-16', (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json(b), 'utf16le')]), UNSUPPORTED],
      ['a byte order mark', 'application/json', (b) => Buffer.from(`\uFEFF${json(b)}`), INVALID],
      // Parsers disagree on a repeated key (first or last): refused, whatever the values.
      ['a key twice', 'application/json', (b) => { const [k, v] = Object.entries(b)[0]; return Buffer.from(`${json(b).slice(0, -1)},${json(k)}:${json(v)}}`); }, INVALID],
      ['a number past float64', 'application/json', (b) => Buffer.from(withNumber(b, '1e400')), INVALID],
      ['a number past int64', 'application/json', (b) => Buffer.from(withNumber(b, '99999999999999999999')), INVALID],
    ];
    for (const route of routes) {
      for (const [trick, contentType, bytes, [status, error]] of tricks) {
        const row = { ...route, name: `${route.name}: ${trick}`, raw: bytes(route.body), headers: { 'Content-Type': contentType }, status, error };
        if (route.signIn) row.send = () => signInRequest(() => call(row.method, row.path, row));
        await attack(t, row);
      }
    }
    // A page on another site can post a form (text/plain or form-encoded) to any route, and the
    // browser adds the player's cookie. As browsers send it (Origin and Sec-Fetch-Site): refused
    // as cross-site. As an old browser would, with neither: refused for not being JSON.
    const browser = { Origin: EVIL, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' };
    const oldBrowser = { Origin: null };
    for (const route of routes.filter((r) => r.method === 'POST')) {
      for (const [form, contentType, bytes] of tricks.slice(0, 2)) {
        for (const [who, headers, [status, error]] of [
          ['a cross-site form', browser, [403, 'origen_no_permitido']],
          ['a cross-site form from a browser that sends no Origin', oldBrowser, UNSUPPORTED],
        ]) {
          const row = { ...route, name: `${route.name}: ${who} (${form})`, raw: bytes(route.body), headers: { ...headers, 'Content-Type': contentType }, status, error };
          if (route.signIn) row.send = () => signInRequest(() => call(row.method, row.path, row));
          await attack(t, row);
        }
      }
    }
    lastSignInAttackAt = Date.now();
  });

  it('NUL and control characters in every text field of the write bodies', async (t) => {
    const { bruno, admin } = people;
    const id = brunoApuesta.id;
    const INVALID = [400, 'datos_invalidos'];
    const { codigo_local, codigo_visitante, ...sinEquipos } = newMatchBody();
    // Every write route with text in its body; per field, a refusal other than 400 that is right too.
    const routes = [
      { name: 'sign in', method: 'POST', path: '/api/sesion', body: { code: `dev.${stamp}.x` }, fields: { code: [[401, 'credencial_invalida']] }, signIn: true },
      { name: 'Bruno renames himself', method: 'POST', path: '/api/jugadores', cookie: bruno.cookie, body: { nombre: 'Bruno cambiado', email: BRUNO.email }, fields: { nombre: [], email: [[403, 'prohibido']] } },
      { name: 'Bruno predicts', method: 'POST', path: apuestas(BRUNO.email), cookie: bruno.cookie, body: prediction(0, 5, { jugador: BRUNO.email }), fields: { jugador: [[403, 'prohibido']], goles_local: [] } },
      { name: 'Bruno changes his prediction', method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}`, cookie: bruno.cookie, body: prediction(0, 5, { jugador: BRUNO.email }), fields: { jugador: [[403, 'prohibido']], goles_local: [] } },
      { name: 'the organiser creates a match', method: 'POST', path: '/api/partidos', cookie: admin.cookie, body: { ...newMatchBody(), sede: 'Estadio de pruebas' }, fields: { torneo: [], nombre_categoria: [], codigo_local: [], codigo_visitante: [], inicio: [], sede: [] } },
      { name: 'the organiser creates a match of unknown teams', method: 'POST', path: '/api/partidos', cookie: admin.cookie, body: { ...sinEquipos, marcador_local: '1A', marcador_visitante: '2B' }, fields: { marcador_local: [], marcador_visitante: [] } },
      { name: 'the organiser imports a tournament', method: 'POST', path: '/api/partidos/importar', cookie: admin.cookie, body: { name: `Ataques ${stamp}`, matches: [] }, fields: { name: [] } },
      { name: 'the organiser reschedules', method: 'PUT', path: `/api/partidos/${match.id}/horario`, cookie: admin.cookie, body: { inicio: new Date(Date.now() + 30 * 60_000).toISOString() }, fields: { inicio: [] } },
      { name: 'the organiser sets the teams', method: 'PUT', path: `/api/partidos/${match.id}/equipos`, cookie: admin.cookie, body: { codigo_local: match.codigo_visitante, codigo_visitante: match.codigo_local }, fields: { codigo_local: [], codigo_visitante: [] } },
      { name: 'the organiser suspends', method: 'PUT', path: `/api/partidos/${match.id}/estado`, cookie: admin.cookie, body: { estado: 'suspendido' }, fields: { estado: [] } },
    ];
    /** value with c after its first character (a number becomes text: "0<c>"). */
    const spoil = (value, c) => (typeof value === 'string' ? value.slice(0, 1) + c + value.slice(1) : `${value}${c}`);
    for (const [char, c] of Object.entries(CONTROL)) {
      for (const route of routes) {
        for (const [field, alsoRight] of Object.entries(route.fields)) {
          const row = { ...route, name: `${route.name}: ${char} in ${field}`, body: { ...route.body, [field]: spoil(route.body[field], c) }, allowed: [INVALID, ...alsoRight] };
          if (route.signIn) row.send = () => signInRequest(() => call(row.method, row.path, row));
          await attack(t, row);
        }
      }
      // The dev chooser's new account: its form answers with its page again (text/html, as the
      // contract says) saying what to fix, and hands out no sign-in code.
      for (const field of ['nombre', 'email']) {
        const form = { nombre: `Eve ${stamp}`, email: EVE.email };
        form[field] = spoil(form[field], c);
        await attack(t, {
          name: `the dev chooser's new account: ${char} in ${field}`,
          method: 'POST',
          path: '/api/sesion/dev',
          send: () =>
            signInRequest(() => call('POST', '/api/sesion/dev', { raw: Buffer.from(new URLSearchParams(form).toString()), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })),
          check: (res, what) => {
            assert.equal(res.status, 400, what);
            assert.match(res.headers.get('Content-Type') || '', /^text\/html/, what);
            assert.doesNotMatch(res.text, /data-code=/, `${what}: a sign-in code was handed out`);
            assert.deepEqual(res.setCookies, [], `${what}: a cookie was set`);
          },
        });
      }
    }
    lastSignInAttackAt = Date.now();
  });

  it('NUL and control characters, and numbers past any integer, in paths and query strings', async (t) => {
    const { bruno, admin } = people;
    const id = brunoApuesta.id;
    const INVALID = [400, 'datos_invalidos'];
    const NOT_FOUND = [404, 'no_encontrado'];
    const rows = [];
    const params = { ...Object.fromEntries(Object.entries(CONTROL).map(([name, c]) => [name, encodeURIComponent(c)])) };
    for (const [char, e] of Object.entries(params)) {
      rows.push(
        // Another e-mail than the session's: "prohibido" is right too.
        { name: `Bruno reads his predictions, ${char} in the e-mail`, method: 'GET', path: apuestas(BRUNO.email).replace('%40', `${e}%40`), cookie: bruno.cookie, allowed: [INVALID, [403, 'prohibido']] },
        { name: `Bruno predicts, ${char} in the e-mail`, method: 'POST', path: apuestas(BRUNO.email).replace('%40', `${e}%40`), cookie: bruno.cookie, body: prediction(0, 5), allowed: [INVALID, [403, 'prohibido']] },
        { name: `Bruno changes his prediction, ${char} in its id`, method: 'PUT', path: `${apuestas(BRUNO.email)}/${id}${e}`, cookie: bruno.cookie, body: prediction(0, 5), allowed: [INVALID, NOT_FOUND] },
        { name: `a match, ${char} in its id`, method: 'GET', path: `/api/partidos/${match.id}${e}`, allowed: [INVALID, NOT_FOUND] },
        { name: `the organiser enters a result, ${char} in the match's id`, method: 'PUT', path: `/api/partidos/${match.id}${e}/resultado`, cookie: admin.cookie, body: { goles_local: 1, goles_visitante: 0 }, allowed: [INVALID, NOT_FOUND] },
        { name: `the matches, ${char} in ?torneo`, method: 'GET', path: `/api/partidos?torneo=${match.torneo_id}${e}`, allowed: [INVALID] },
        { name: `the unplayed matches, ${char} in ?torneo`, method: 'GET', path: `/api/partidos-sin-jugar?torneo=${match.torneo_id}${e}`, allowed: [INVALID] },
        { name: `the standings, ${char} in ?pagina`, method: 'GET', path: `/api/posiciones?pagina=1${e}`, allowed: [INVALID] },
        { name: `a match's predictions, ${char} in ?partido`, method: 'GET', path: `/api/apuestas?partido=${match.id}${e}`, cookie: bruno.cookie, allowed: [INVALID] },
        { name: `the audit list, ${char} in ?pagina`, method: 'GET', path: `/api/auditoria?pagina=1${e}`, cookie: admin.cookie, allowed: [INVALID] },
        { name: `the organiser imports a tournament, ${char} in ?desfase`, method: 'POST', path: `/api/partidos/importar?desfase=${e}`, cookie: admin.cookie, body: { name: `Ataques ${stamp}`, matches: [] }, allowed: [INVALID] },
      );
    }
    for (const [what, n] of Object.entries({ 'past int64': '99999999999999999999', 'past float64': '1e400' })) {
      rows.push(
        { name: `a match, its id ${what}`, method: 'GET', path: `/api/partidos/${n}`, allowed: [INVALID, NOT_FOUND] },
        { name: `Bruno changes a prediction, its id ${what}`, method: 'PUT', path: `${apuestas(BRUNO.email)}/${n}`, cookie: bruno.cookie, body: prediction(0, 5), allowed: [INVALID, NOT_FOUND] },
        { name: `the organiser enters a result, the match's id ${what}`, method: 'PUT', path: `/api/partidos/${n}/resultado`, cookie: admin.cookie, body: { goles_local: 1, goles_visitante: 0 }, allowed: [INVALID, NOT_FOUND] },
        { name: `the matches, ?torneo ${what}`, method: 'GET', path: `/api/partidos?torneo=${n}`, allowed: [INVALID, NOT_FOUND] },
        { name: `the standings, ?pagina ${what}`, method: 'GET', path: `/api/posiciones?pagina=${n}`, allowed: [INVALID] },
        { name: `a match's predictions, ?partido ${what}`, method: 'GET', path: `/api/apuestas?partido=${n}`, cookie: bruno.cookie, allowed: [INVALID, NOT_FOUND] },
      );
    }
    for (const row of rows) await attack(t, row);
  });

  it('a cut-off race over HTTP: by the database clock, every save after the cut-off is refused', async (t) => {
    await scenario(t, 'two players save concurrently while their match reaches its cut-off', async () => {
      const racers = [await signIn(CARLA), await signIn(DANI)];
      [people.carla, people.dani] = racers;
      const { admin } = people;
      const race = await createMatch(admin, { torneo: `Carrera ${stamp}`, nombre_categoria: 'Carrera al cierre', teams: [2, 3] });
      // The kick-off 1 hour and a few seconds ahead, in whole seconds as the service keeps it:
      // predictions close at the cut-off, one hour before, by the database's clock.
      const inicio = new Date(Math.ceil((Date.now() + 3600_000 + RACE_LEAD_MS) / 1000) * 1000);
      await ok('PUT', `/api/partidos/${race.id}/horario`, { cookie: admin.cookie, body: { inicio: inicio.toISOString() } });
      const cutOff = inicio.getTime() - 3600_000;
      // Rounds of concurrent saves (two per player, each its own score) until a while after the
      // cut-off, each round once the last has answered. A player's rate stays under WRITE_RATE.
      const rounds = [];
      for (let r = 0; Date.now() < cutOff + RACE_AFTER_MS; r++) {
        const startedAt = Date.now();
        const saves = await Promise.all(
          racers.map((p) =>
            Promise.all(
              [0, 1].map(async (k) => {
                const sent = [r, k];
                const res = await call('POST', apuestas(p.email), { cookie: p.cookie, body: { partido: race.id, goles_local: r, goles_visitante: k } });
                return { sent, status: res.status, error: res.json?.error, json: res.json, text: res.text };
              }),
            ),
          ),
        );
        rounds.push({ startedAt, saves });
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, RACE_ROUND_MS - (Date.now() - startedAt))));
      }
      for (const [i, p] of racers.entries()) {
        const mine = rounds.map(({ startedAt, saves }) => ({ startedAt, saves: saves[i] }));
        const accepted = (s) => s.status === 200 || s.status === 201;
        for (const { saves } of mine) {
          for (const s of saves) {
            const what = `${p.email} saving ${s.sent}: ${s.status} ${s.text}`;
            if (accepted(s)) {
              assert.deepEqual([s.json.partido, s.json.goles_local, s.json.goles_visitante], [race.id, ...s.sent], `${what}: saved something else`);
            } else {
              assert.deepEqual([s.status, s.error], [409, 'apuesta_cerrada'], `${what}: want accepted or 409 apuesta_cerrada`);
            }
          }
        }
        const withAccepted = mine.flatMap((round, n) => (round.saves.some(accepted) ? [n] : []));
        const withRefused = mine.flatMap((round, n) => (round.saves.some((s) => !accepted(s)) ? [n] : []));
        assert.ok(withAccepted.length > 0 && withRefused.length > 0, `${p.email}: the race did not straddle the cut-off (${withAccepted.length} rounds with a save accepted, ${withRefused.length} with one refused)`);
        const lastAccepted = Math.max(...withAccepted);
        const firstRefused = Math.min(...withRefused);
        assert.ok(lastAccepted <= firstRefused, `${p.email}: round ${lastAccepted} had a save accepted after round ${firstRefused} had one refused`);
        // The database's clock and this machine's agree to within the round trip; a generous margin for a loaded machine.
        assert.ok(mine[firstRefused].startedAt >= cutOff - RACE_CLOCK_SLACK_MS, `${p.email}: refused ${cutOff - mine[firstRefused].startedAt} ms before the cut-off`);
        assert.ok(mine[lastAccepted].startedAt <= cutOff + RACE_CLOCK_SLACK_MS, `${p.email}: accepted ${mine[lastAccepted].startedAt - cutOff} ms after the cut-off`);
        // What is stored is a save accepted in the last round that had any: the last one accepted
        // before the cut-off (the concurrent saves of that round land in either order).
        const lastSaves = mine[lastAccepted].saves.filter(accepted).map((s) => s.sent);
        const stored = (await ok('GET', apuestas(p.email), { cookie: p.cookie })).find((a) => a.partido === race.id);
        assert.ok(stored, `${p.email}: no prediction stored`);
        assert.ok(
          lastSaves.some(([l, v]) => stored.goles_local === l && stored.goles_visitante === v),
          `${p.email}: stored ${stored.goles_local}-${stored.goles_visitante}, want one of the last accepted: ${JSON.stringify(lastSaves)}`,
        );
        // A change through the prediction's own id is refused too, and changes nothing.
        const put = await call('PUT', `${apuestas(p.email)}/${stored.id}`, { cookie: p.cookie, body: { partido: race.id, goles_local: 9, goles_visitante: 9 } });
        assert.deepEqual([put.status, put.json?.error], [409, 'apuesta_cerrada'], `${p.email}: a change after the cut-off: ${put.status} ${put.text}`);
        const after = (await ok('GET', apuestas(p.email), { cookie: p.cookie })).find((a) => a.partido === race.id);
        assert.deepEqual(after, stored, `${p.email}: the refused change changed the prediction`);
      }
    });
    // The race's tournament and match are no attack: the rows that follow are judged from here.
    baseline = await snapshot();
  });

  it('the write limit holds whatever X-Forwarded-For says', async (t) => {
    await scenario(t, 'Carla saves, each time from another forged address', async () => {
      const carla = people.carla ?? (await signIn(CARLA));
      // An open match of its own, beside the race's: whatever an earlier row did to the matrix's.
      const open = await createMatch(people.admin, { torneo: `Carrera ${stamp}`, nombre_categoria: 'Límite de escrituras', teams: [4, 5] });
      const save = (goles_local, goles_visitante) => ({ partido: open.id, goles_local, goles_visitante });
      let lastAccepted;
      let limited = false;
      for (let i = 0; i < 200 && !limited; i++) {
        const sent = [i % 10, 1];
        const res = await call('POST', apuestas(CARLA.email), { cookie: carla.cookie, body: save(...sent), headers: forgedAddress(i) });
        if (res.status === 429) {
          assertTooMany(res, `save ${i}`);
          limited = true;
        } else {
          assert.ok(res.status === 200 || res.status === 201, `save ${i}: ${res.status} ${res.text}`);
          lastAccepted = sent;
        }
      }
      assert.ok(limited, 'no 429 in 200 saves, each from another forged X-Forwarded-For: the limit follows the header');
      // Had each forged address a bucket of its own, all of these would pass. The two the
      // bucket may have refilled meanwhile are saves like any other.
      const answers = await assertMostlyLimited((n) => call('POST', apuestas(CARLA.email), { cookie: carla.cookie, body: save(9, 9), headers: forgedAddress(1000 + n) }));
      if (answers.some((res) => res.status === 200 || res.status === 201)) lastAccepted = [9, 9];
      // A refused save changed nothing: the stored prediction is the last one accepted.
      const stored = (await ok('GET', apuestas(CARLA.email), { cookie: carla.cookie })).find((a) => a.partido === open.id);
      assert.deepEqual([stored.goles_local, stored.goles_visitante], lastAccepted, 'the stored prediction is not the last accepted');
    });
    baseline = await snapshot(); // the scenario's match is no attack
  });

  it('the sign-in limit holds whatever X-Forwarded-For says', async (t) => {
    await scenario(t, 'sign-ins with a garbage code, each from another forged address', async () => {
      let limited = false;
      for (let i = 0; i < 400 && !limited; i++) {
        const res = await call('POST', '/api/sesion', { body: { code: `dev.${stamp}.garbage` }, headers: forgedAddress(i) });
        if (res.status === 429) {
          assertTooMany(res, `sign-in ${i}`);
          limited = true;
        } else {
          assert.deepEqual([res.status, res.json?.error, res.setCookies], [401, 'credencial_invalida', []], `sign-in ${i}: ${res.status} ${res.text}`);
        }
      }
      assert.ok(limited, 'no 429 in 400 sign-ins, each from another forged X-Forwarded-For: the limit follows the header');
      await assertMostlyLimited((n) => call('POST', '/api/sesion', { body: { code: `dev.${stamp}.garbage` }, headers: forgedAddress(2000 + n) }));
    });
    // This address's sign-in bucket is empty now: the after hook gives it time to refill, as if
    // all its tokens had been taken this moment.
    firstSignInAt = Date.now();
    signInRequests = SIGN_IN_BURST;
    lastSignInAttackAt = Date.now();
  });

  it('the standings: nobody registered or renamed', async () => {
    const wait = lastSignInAttackAt + STANDINGS_PAGE_TTL_MS + 2_000 - Date.now();
    if (wait > 0) {
      console.log(`identity matrix: waiting ${Math.ceil(wait / 1000)} s until no cached standings page predates the attacks`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const { total, rows } = await standings();
    assert.equal(rows.length, total);
    // Every name this run could have registered carries the stamp: only the players it signed in
    // (Ana and Bruno, and the cut-off race's Carla and Dani), once each, under their own names.
    const ours = rows.filter((p) => p.nombre.includes(stamp)).map((p) => [p.id, p.nombre]);
    const signedIn = ['ana', 'bruno', 'carla', 'dani'].filter((who) => people[who]).map((who) => [people[who].id, people[who].nombre]);
    assert.deepEqual(
      ours.sort((a, b) => a[0] - b[0]),
      signedIn.sort((a, b) => a[0] - b[0]),
    );
    assert.ok(!rows.some((p) => p.nombre === EVE.nombre), 'Eve was registered');
    assert.equal(rows.filter((p) => p.id === people.admin.id).map((p) => p.nombre).join(), ADMIN.nombre);
    standingsChecked = true;
  });

  it('prints the summary', () => {
    assert.equal(refused, attempted, `${attempted - refused} of ${attempted} attacks were not refused cleanly (see above)`);
    assert.ok(refused >= 300, `only ${refused} attacks ran`);
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
