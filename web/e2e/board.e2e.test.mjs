// The around-me board and pins (issue 20) in Chromium, against a running stack: PRODE_URL,
// default http://localhost:8080/.
//
// Ana signs in, then five other players, Beto, and five more (through the dev sign-in over HTTP):
// nobody has points, so they follow in the order they registered and Beto is far enough from Ana
// and from the last place not to be on her board. On /posiciones Ana pins Beto from his row of the
// table (a toggle button, pressed once pinned); on the home page her board ("Cerca tuyo") now shows
// Beto's row marked as pinned, a gap ("…") after it, and "Ver 10 más" below him opens the rows up
// to the last place. She unpins him from the board itself and he leaves it. Pins are hers alone: Beto's board shows none of them, pinning
// herself is refused in Spanish. Every new screen is checked at 1280x800 and 390x844 (overflow,
// clipped text, axe), and the home board is saved to .test/board-home.png to be looked at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { describe } from 'node:test';
import { fileURLToPath } from 'node:url';
import { apiAs, callAs } from './lib/api.mjs';
import { BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { checkScreen, settle } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const stamp = Date.now().toString(36);
const ANA = { email: `tablero-ana-${stamp}@prode.test`, nombre: `Ana Tablero ${stamp}` };
const BETO = { email: `tablero-beto-${stamp}@prode.test`, nombre: `Beto Tablero ${stamp}` };
const SCREENSHOT_DIR = fileURLToPath(new URL('../../.test/', import.meta.url));
const ORIGIN = new URL(BASE_URL).origin;

/** Registers a player as the dev account chooser and the web app do, without a browser. */
async function register(nombre, email) {
  const chooser = await fetch(new URL('api/sesion/dev', BASE_URL), {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ nombre, email }),
    redirect: 'manual',
  });
  const code = /data-code="([^"]+)"/.exec(await chooser.text())?.[1];
  assert.ok(code, `the chooser gives ${email} a code: ${chooser.status}`);
  const res = await fetch(new URL('api/sesion', BASE_URL), {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  assert.equal(res.status, 200, `sign-in of ${email}`);
}

/** Five players who only fill the table. */
async function registerFive(from) {
  for (let i = from; i < from + 5; i++) await register(`Relleno ${i} ${stamp}`, `tablero-relleno-${i}-${stamp}@prode.test`);
}

describe('The around-me board: pin a friend from a table row, see them on the home board', { timeout: 10 * 60_000 }, () => {
  const { ana, beto } = peopleForSuite({ ana: 'tablero-ana', beto: 'tablero-beto' });
  const step = stepsInOrder();
  const state = {}; // beto (id)

  step('Ana signs in, then five players, Beto and five more', async () => {
    await ana.page.goto(BASE_URL);
    await signInThroughPopup(ana, ANA);
    state.ana = (await apiAs(ana, 'GET', '/api/sesion')).id;
    await registerFive(1);
    await beto.page.goto(BASE_URL);
    await signInThroughPopup(beto, BETO);
    state.beto = (await apiAs(beto, 'GET', '/api/sesion')).id;
    await registerFive(6);
    const tablero = await apiAs(ana, 'GET', '/api/posiciones/tablero');
    assert.ok(!tablero.filas.some((f) => f.id === state.beto), `Beto is not on Ana's board before she pins him: ${JSON.stringify(tablero.filas.map((f) => [f.fila, f.nombre]))}`);
  });

  step("Ana pins Beto from his row of the table", async () => {
    const { page } = ana;
    await page.goto(new URL('posiciones', BASE_URL).href);
    await page.getByRole('heading', { level: 1, name: 'Tabla de posiciones' }).waitFor();
    const table = page.getByRole('table', { name: 'Tabla de posiciones' });
    const pin = table.getByRole('button', { name: `Fijar a ${BETO.nombre}` });
    await pin.waitFor();
    assert.equal(await pin.getAttribute('aria-pressed'), 'false');
    assert.equal(await table.getByRole('button', { name: `Fijar a ${ANA.nombre}` }).count(), 0, 'no pin button on her own row');
    await pin.click();
    await table.getByRole('button', { name: `Quitar fijado a ${BETO.nombre}` }).waitFor();
    assert.equal(await table.getByRole('button', { name: `Quitar fijado a ${BETO.nombre}` }).getAttribute('aria-pressed'), 'true');
    const fijados = await apiAs(ana, 'GET', '/api/posiciones/fijados');
    assert.deepEqual(fijados.map((f) => f.id), [state.beto]);
    await settle(page);
    await checkScreen(page, 'tabla-con-fijado');
  });

  step('the home board shows Beto, marked as pinned, and Ana; "Ver 10 más" opens the rows below him', async () => {
    const { page } = ana;
    await page.goto(BASE_URL);
    const board = page.getByRole('table', { name: 'Cerca tuyo' });
    const betoRow = board.getByRole('row', { name: new RegExp(BETO.nombre) });
    await betoRow.waitFor();
    assert.match(await betoRow.getAttribute('class'), /is-pinned/);
    assert.ok((await betoRow.textContent()).includes('Fijado'), "Beto's row says it is pinned");
    const own = board.locator('tr[aria-current="true"]');
    assert.ok((await own.textContent()).includes(ANA.nombre), "Ana's own row is on the board");
    const tablero = await apiAs(ana, 'GET', '/api/posiciones/tablero');
    const betoFila = tablero.filas.find((f) => f.id === state.beto);
    assert.ok(betoFila?.motivos.includes('fijado'), `Beto is on the board as pinned: ${JSON.stringify(betoFila)}`);
    assert.ok(tablero.filas.find((f) => f.id === state.ana)?.motivos.includes('yo'));
    assert.equal(new Set(tablero.filas.map((f) => f.fila)).size, tablero.filas.length, 'no row twice');
    assert.equal(tablero.filas.filter((f) => !f.motivos.includes('fijado') || f.motivos.length > 1).length, Math.min(7, tablero.total), 'seven rows besides the pins');
    await settle(page);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await board.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOT_DIR}board-home.png`, fullPage: true });
    await checkScreen(page, 'inicio-con-tablero');

    // A gap follows Beto (his neighbours are not on the board); 10 more rows below him fill it.
    state.betoFila = betoFila.fila;
    await board.getByRole('button', { name: `Ver 10 más debajo de la fila ${betoFila.fila}` }).click();
    const next = board.getByRole('row', { name: new RegExp(`Relleno 6 ${stamp}`) });
    await next.waitFor();
    assert.equal(await board.getByRole('button', { name: `Ver 10 más debajo de la fila ${betoFila.fila}` }).count(), 0, 'no gap after Beto once the rows below him are open');
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}board-home-ver-mas.png`, fullPage: true });
    await checkScreen(page, 'inicio-tablero-ver-mas');
  });

  step('pins are her own: not on Beto\'s board, herself refused', async () => {
    const suyo = await apiAs(beto, 'GET', '/api/posiciones/tablero');
    assert.ok(suyo.filas.every((f) => !f.motivos.includes('fijado')), "Beto's board has no pins of Ana's");
    assert.deepEqual(await apiAs(beto, 'GET', '/api/posiciones/fijados'), []);
    const self = await callAs(ana, 'PUT', `/api/posiciones/fijados/${state.ana}`);
    assert.equal(self.status, 400);
    assert.equal(self.body.error, 'datos_invalidos');
    assert.match(self.body.mensaje, /No podés fijarte a vos mismo/);
  });

  step('Ana unpins Beto from the board itself, and he leaves it', async () => {
    const { page } = ana;
    await page.goto(BASE_URL);
    const board = page.getByRole('table', { name: 'Cerca tuyo' });
    await board.getByRole('button', { name: `Quitar fijado a ${BETO.nombre}` }).click();
    await board.getByRole('row', { name: new RegExp(BETO.nombre) }).waitFor({ state: 'detached' });
    assert.deepEqual(await apiAs(ana, 'GET', '/api/posiciones/fijados'), []);
    const tablero = await apiAs(ana, 'GET', '/api/posiciones/tablero');
    assert.ok(tablero.filas.every((f) => f.id !== state.beto && !f.motivos.includes('fijado')));
  });
});
