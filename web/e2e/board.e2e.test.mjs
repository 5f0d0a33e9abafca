// The around-me board and pins (issue 20) in Chromium, against a running stack: PRODE_URL,
// default http://localhost:8080/.
//
// Beto signs in, then Ana. On /posiciones Ana pins Beto from his row of the table (a toggle
// button, pressed once pinned); on the home page her board ("Cerca tuyo") shows Beto's row marked
// as pinned, beside her own; the board's API says why each row is there. She unpins him from the
// board itself and the mark goes. Pins are hers alone: Beto's board shows none of them, pinning
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

describe('The around-me board: pin a friend from a table row, see them on the home board', { timeout: 10 * 60_000 }, () => {
  const { ana, beto } = peopleForSuite({ ana: 'tablero-ana', beto: 'tablero-beto' });
  const step = stepsInOrder();
  const state = {}; // beto (id)

  step('Beto and Ana sign in', async () => {
    await beto.page.goto(BASE_URL);
    await signInThroughPopup(beto, BETO);
    state.beto = (await apiAs(beto, 'GET', '/api/sesion')).id;
    await ana.page.goto(BASE_URL);
    await signInThroughPopup(ana, ANA);
    state.ana = (await apiAs(ana, 'GET', '/api/sesion')).id;
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

  step('the home board shows Beto, marked as pinned, and Ana', async () => {
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
    await settle(page);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await board.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOT_DIR}board-home.png`, fullPage: true });
    await checkScreen(page, 'inicio-con-tablero');
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

  step('Ana unpins Beto from the board itself', async () => {
    const { page } = ana;
    const board = page.getByRole('table', { name: 'Cerca tuyo' });
    await board.getByRole('button', { name: `Quitar fijado a ${BETO.nombre}` }).click();
    await board.getByRole('button', { name: `Fijar a ${BETO.nombre}` }).waitFor();
    assert.deepEqual(await apiAs(ana, 'GET', '/api/posiciones/fijados'), []);
    const tablero = await apiAs(ana, 'GET', '/api/posiciones/tablero');
    assert.ok(tablero.filas.every((f) => !f.motivos.includes('fijado')));
  });
});
