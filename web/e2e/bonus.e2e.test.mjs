// Bonus questions ("preguntas", issue 16) in Chromium, against a running stack: PRODE_URL,
// default http://localhost:8080/.
//
// The organiser makes a tournament of its own (one match four days ahead) and, in the admin
// page's "Preguntas", a question with the default lock (an hour before that match), and one that
// locks in an hour. A player answers both on /preguntas before their locks (saved, and nobody can
// read another's answer yet). The organiser then moves the second one's lock to three seconds
// ahead (an edit), so that the wait is short however slow the machine was until then; once it is
// locked, changing it is refused in Spanish and nothing changes. The organiser enters its right
// answer: the player's row in the tournament's table gains the points in the Bonus column and
// in the total, and /preguntas says so with everyone's answers; a correction takes them away
// again, clearing the answer too. The screens are checked at 1280x800 and 390x844 (overflow,
// clipped text, axe).
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { apiAs, callAs, openMatchIn } from './lib/api.mjs';
import { BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { checkScreen } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo', demo: true };
const stamp = Date.now().toString(36);
const PLAYER = { email: `preguntas-${stamp}@prode.test`, nombre: `Preguntas ${stamp}` };
const TORNEO = `Copa de preguntas ${stamp}`;
const CAMPEON = `¿Quién sale campeón? ${stamp}`;
const GOLEADOR = `¿De qué equipo es el goleador? ${stamp}`;
const PUNTOS = 7;
const CERRADA = 'La pregunta ya está cerrada; no se puede cambiar la respuesta.';
const SHORT_LOCK_MS = 3_000;

describe('Bonus questions: answers before and after the lock, right answers into the standings', { timeout: 10 * 60_000 }, () => {
  const { player, admin } = peopleForSuite({ player: 'preguntas-jugador', admin: 'preguntas-organizador' });
  const step = stepsInOrder();
  const state = {}; // torneo, campeon, goleador (questions), cierre (the second one's lock, ms)

  /** The player's row in the tournament's table (all pages). */
  async function myRow() {
    for (let pagina = 1; ; pagina++) {
      const page = await apiAs(player, 'GET', `/api/posiciones?torneo=${state.torneo}&pagina=${pagina}&por_pagina=100`);
      const row = page.posiciones.find((r) => r.id === state.jugador);
      if (row || page.posiciones.length === 0) return row;
    }
  }

  /** Waits (30 s at most) for the player's row to hold `bonus` and `puntaje` (no row: nothing yet). */
  async function expectRow(bonus, puntaje) {
    let row;
    for (let tries = 0; tries < 30; tries++) {
      row = await myRow();
      if ((row?.bonus ?? 0) === bonus && (row?.puntaje ?? 0) === puntaje) return;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    assert.fail(`the player's row is ${JSON.stringify(row)}, want bonus ${bonus} and puntaje ${puntaje}`);
  }

  const questionCard = (page, texto) => page.locator('li', { has: page.getByRole('heading', { name: texto }) });

  step('the organiser makes a tournament and asks two questions in the admin page', async () => {
    await admin.page.goto(BASE_URL);
    await signInThroughPopup(admin, ADMIN);
    const partido = await openMatchIn(admin, TORNEO);
    state.torneo = partido.torneo_id;

    const { page } = admin;
    await page.goto(new URL('admin', BASE_URL).href);
    await page.getByRole('heading', { level: 1, name: 'Organizar el torneo' }).waitFor();
    const seccion = page.getByRole('region', { name: 'Preguntas' });
    await seccion.getByLabel('Preguntas del torneo').selectOption(String(state.torneo));
    await seccion.getByText('Este torneo todavía no tiene preguntas.').waitFor();
    await seccion.getByLabel('Pregunta', { exact: true }).fill(CAMPEON);
    await seccion.getByLabel('Puntos').fill('20');
    await seccion.getByLabel('Opciones (una por línea, entre 2 y 64)').fill('Argentina\nFrancia\nBrasil');
    await seccion.getByRole('button', { name: 'Crear pregunta' }).click();
    await seccion.getByRole('heading', { name: CAMPEON }).waitFor();

    // The second one is created with a lock of its own through the API: in an hour, for now.
    state.cierre = Math.ceil((Date.now() + 60 * 60_000) / 1000) * 1000;
    await apiAs(admin, 'POST', `/api/torneos/${state.torneo}/preguntas`, {
      texto: GOLEADOR,
      puntos: PUNTOS,
      cierre: new Date(state.cierre).toISOString(),
      opciones: ['Argentina', 'Francia', 'Brasil'],
    });
    await seccion.getByRole('heading', { name: GOLEADOR }).waitFor({ timeout: 15_000 }).catch(async () => {
      await page.reload();
      await page.getByRole('region', { name: 'Preguntas' }).getByLabel('Preguntas del torneo').selectOption(String(state.torneo));
      await page.getByRole('heading', { name: GOLEADOR }).waitFor();
    });
    await checkScreen(page, 'admin-preguntas');
    const preguntas = await apiAs(admin, 'GET', `/api/torneos/${state.torneo}/preguntas`);
    state.campeon = preguntas.find((p) => p.texto === CAMPEON);
    state.goleador = preguntas.find((p) => p.texto === GOLEADOR);
    assert.ok(state.campeon && state.goleador, 'both questions are listed');
    assert.equal(state.campeon.puntos, 20);
  });

  step('before the lock: the player answers on /preguntas, saved; nobody can read the answers yet', async () => {
    const { page } = player;
    await page.goto(BASE_URL);
    await signInThroughPopup(player, PLAYER);
    state.jugador = (await apiAs(player, 'GET', '/api/sesion')).id;
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Preguntas' }).click();
    await page.getByRole('heading', { level: 1, name: 'Preguntas' }).waitFor();
    await page.getByRole('combobox', { name: 'Torneo' }).selectOption(String(state.torneo));
    for (const [texto, opcion] of [
      [CAMPEON, 'Argentina'],
      [GOLEADOR, 'Francia'],
    ]) {
      const card = questionCard(page, texto);
      await card.getByLabel('Tu respuesta').selectOption({ label: opcion });
      await card.getByRole('button', { name: 'Guardar respuesta' }).click();
      await card.getByText('Respuesta guardada.').waitFor();
    }
    assert.ok(Date.now() < state.cierre, 'the answers were saved before the lock');
    await checkScreen(page, 'preguntas-abiertas');
    const lista = await apiAs(player, 'GET', `/api/preguntas?torneo=${state.torneo}`);
    const mia = (texto) => {
      const p = lista.find((q) => q.texto === texto);
      return p.opciones.find((o) => o.id === p.mi_respuesta)?.texto;
    };
    assert.deepEqual([mia(CAMPEON), mia(GOLEADOR)], ['Argentina', 'Francia']);
    // Nobody, the organiser included, reads the answers before the lock.
    const oculto = await callAs(admin, 'GET', `/api/preguntas/${state.campeon.id}/respuestas`);
    assert.deepEqual([oculto.status, oculto.body?.error], [409, 'respuestas_ocultas']);
  });

  step('after the lock: a change is refused in Spanish, and the answer stays', async () => {
    // The organiser brings the lock forward to three seconds from now, and the clock passes it.
    state.cierre = Math.ceil((Date.now() + SHORT_LOCK_MS) / 1000) * 1000;
    const editada = await apiAs(admin, 'PUT', `/api/torneos/${state.torneo}/preguntas/${state.goleador.id}`, {
      texto: GOLEADOR,
      puntos: PUNTOS,
      cierre: new Date(state.cierre).toISOString(),
    });
    assert.equal(new Date(editada.cierre).getTime(), state.cierre);
    const { page } = player;
    const wait = state.cierre + 1_500 - Date.now();
    if (wait > 0) await page.waitForTimeout(wait);
    // The page still shows the form from before the lock: the server refuses by its clock.
    const card = questionCard(page, GOLEADOR);
    await card.getByLabel('Tu respuesta').selectOption({ label: 'Brasil' });
    await card.getByRole('button', { name: 'Guardar respuesta' }).click();
    await card.getByRole('alert').filter({ hasText: CERRADA }).waitFor();
    await card.getByText('Tu respuesta: Francia.').waitFor();
    const res = await callAs(player, 'PUT', `/api/preguntas/${state.goleador.id}/respuesta`, {
      opcion: state.goleador.opciones.find((o) => o.texto === 'Brasil').id,
    });
    assert.deepEqual([res.status, res.body?.error, res.body?.mensaje], [409, 'pregunta_cerrada', CERRADA]);
    const lista = await apiAs(player, 'GET', `/api/preguntas?torneo=${state.torneo}`);
    const goleador = lista.find((q) => q.id === state.goleador.id);
    assert.equal(goleador.cerrada, true);
    assert.equal(goleador.opciones.find((o) => o.id === goleador.mi_respuesta)?.texto, 'Francia');
  });

  step("the organiser's right answer: the Bonus column and the total change; a correction takes it back", async () => {
    // No match of this tournament has a result: the player has no points yet (and may have no row).
    const before = await myRow();
    assert.equal(before?.bonus ?? 0, 0);
    const base = before?.puntaje ?? 0;

    const { page } = admin;
    await page.reload();
    const seccion = page.getByRole('region', { name: 'Preguntas' });
    await seccion.getByLabel('Preguntas del torneo').selectOption(String(state.torneo));
    const item = seccion.locator('li', { has: page.getByRole('heading', { name: GOLEADOR }) });
    await item.getByRole('checkbox', { name: 'Francia' }).check();
    await item.getByRole('button', { name: 'Guardar respuesta correcta' }).click();
    await item.getByText('Respuesta correcta guardada', { exact: false }).waitFor();
    await expectRow(PUNTOS, base + PUNTOS);

    // On screen: the table's Bonus column, and /preguntas with the points and everyone's answers.
    await player.page.goto(new URL(`posiciones?torneo=${state.torneo}`, BASE_URL).href);
    const row = player.page.locator('table.standings-table:not(.board__table) tbody tr', { hasText: PLAYER.nombre });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    assert.deepEqual(cells.slice(2, 4), [String(PUNTOS), String(base + PUNTOS)], `the row reads ${cells}`);
    await player.page.goto(new URL(`preguntas?torneo=${state.torneo}`, BASE_URL).href);
    const card = questionCard(player.page, GOLEADOR);
    await card.getByText(`¡Acertaste! Sumaste ${PUNTOS} puntos.`).waitFor();
    const counts = card.getByRole('table', { name: /Respuestas de todos/ });
    await counts.waitFor();
    assert.match(await counts.locator('tr', { hasText: 'Francia' }).textContent(), /Correcta\s*1$/);
    await checkScreen(player.page, 'preguntas-cerradas');

    // A correction: Brasil was right. The points go away.
    await item.getByRole('checkbox', { name: 'Francia' }).uncheck();
    await item.getByRole('checkbox', { name: 'Brasil' }).check();
    await item.getByRole('button', { name: 'Guardar respuesta correcta' }).click();
    await expectRow(0, base);
    // A tie (Brasil and Francia both right): the points are back. Cleared: gone again.
    await item.getByRole('checkbox', { name: 'Francia' }).check();
    await item.getByRole('button', { name: 'Guardar respuesta correcta' }).click();
    await expectRow(PUNTOS, base + PUNTOS);
    await item.getByRole('button', { name: 'Borrar respuesta correcta' }).click();
    await item.getByRole('button', { name: 'Sí, borrar la respuesta' }).click();
    await item.getByText('Respuesta correcta borrada.').waitFor();
    await expectRow(0, base);
  });

  step('no CSP violation and no uncaught error happened in any page', async () => {
    assert.deepEqual([...player.problems, ...admin.problems], []);
  });
});
