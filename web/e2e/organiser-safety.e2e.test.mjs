// Issue 14, organiser safety, end to end against a running stack (PRODE_URL): on the admin
// screen the organiser is asked before deleting a result (cancelling keeps it) and warned before
// entering one before kick-off; once everyone's predictions were shown, the server refuses what
// would reopen betting (moving a locked match later, deleting a result entered early) with a
// Spanish message on the screen, and the organiser may insist on purpose; the list of the
// organiser's changes shows all of it: who, what, when. Screens are checked at 1280x800 and
// 390x844 (overflow, clipped text, axe).
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { api } from './lib/api.mjs';
import { BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { checkScreen, settle } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo' };
const HOUR = 3600_000;

const pad = (n) => String(n).padStart(2, '0');
/** A datetime-local value in this machine's zone, which is also the browser's. */
const localInput = (date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

describe('Organiser safety end to end', { timeout: 10 * 60_000 }, () => {
  const { admin } = peopleForSuite({ admin: 'organizador-seguro' });
  const locked = {}; // moved inside its cut-off, played, its result deleted; then moved later: refused
  const early = {}; // its result entered days before kick-off, then deleted: refused, then forced

  const step = stepsInOrder();

  const match = async (m) => (await api(admin.page, 'GET', '/api/partidos')).find((p) => p.id === m.id);

  /** Match m has no result any more, and takes predictions or not. */
  async function expectNoResult(m, { apostable, why }) {
    const now = await match(m);
    assert.equal(now.resultado, null);
    assert.equal(now.apostable, apostable, why);
  }

  async function openCard(m) {
    const { page } = admin;
    const card = page.locator(`li.admin-match[data-partido="${m.id}"]`);
    if ((await card.locator('details').getAttribute('open')) === null) await card.locator('summary').click();
    await card.getByRole('button', { name: 'Guardar resultado' }).waitFor();
    return card;
  }

  async function typeScore(card, m, local, visitante) {
    await card.getByLabel(`Goles de ${m.local}`, { exact: true }).fill(String(local));
    await card.getByLabel(`Goles de ${m.visitante}`, { exact: true }).fill(String(visitante));
  }

  /** The warning before an early result, for match m. */
  const earlyWarning = (card) => card.getByRole('group', { name: /^El partido todavía no empezó \(empieza el \d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2}\)\. ¿Cargar el resultado igual\?$/ });
  const deleteQuestion = (card, m) =>
    card.getByRole('group', { name: `¿Borrar el resultado de ${m.local} - ${m.visitante}? Los puntos de ese partido se recalculan.` });

  step('the organiser signs in and opens the admin screen', async () => {
    const { page } = admin;
    await page.goto(BASE_URL);
    await signInThroughPopup(admin, { ...ADMIN, demo: true });
    const open = (await api(page, 'GET', '/api/partidos')).filter((p) => p.apostable && !p.resultado);
    assert.ok(open.length >= 3, 'at least three matches take predictions');
    for (const [m, p] of [[locked, open[1]], [early, open[2]]]) {
      Object.assign(m, { id: p.id, local: p.nombre_local, visitante: p.nombre_visitante, inicio: p.inicio });
    }
    await page.getByRole('link', { name: 'Organizar' }).click();
    await page.getByRole('heading', { name: 'Organizar el torneo' }).waitFor();
    await page.getByRole('heading', { name: 'Cambios del organizador' }).waitFor();
    await settle(page);
  });

  step('a match moved inside its cut-off: its early result needs a confirmation, and cancelling sends nothing', async () => {
    const card = await openCard(locked);
    await card.getByLabel(/Comienzo/).fill(localInput(new Date(Date.now() + HOUR / 2)));
    await card.getByRole('button', { name: 'Cambiar horario' }).click();
    await card.getByText('Horario cambiado.').waitFor();
    locked.inicio = (await match(locked)).inicio;
    assert.equal((await match(locked)).apostable, false, 'locked: everyone can see the predictions now');

    await typeScore(card, locked, 1, 0);
    await card.getByRole('button', { name: 'Guardar resultado' }).click();
    await earlyWarning(card).waitFor();
    await card.getByRole('button', { name: 'Cancelar' }).click();
    await earlyWarning(card).waitFor({ state: 'detached' });
    assert.equal((await match(locked)).resultado, null, 'cancelled: no result');

    await card.getByRole('button', { name: 'Guardar resultado' }).click();
    await earlyWarning(card).getByRole('button', { name: 'Sí, cargar el resultado' }).click();
    await card.getByText('Resultado guardado.').waitFor();
    assert.equal((await match(locked)).resultado?.goles_local, 1);
  });

  step('deleting a result asks first: cancelling keeps it, confirming deletes it', async () => {
    const { page } = admin;
    const card = await openCard(locked);
    await card.getByRole('button', { name: 'Borrar resultado' }).click();
    await deleteQuestion(card, locked).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancelar', 'focus on the answer that changes nothing');
    await checkScreen(page, 'admin-confirmar-borrado');
    await card.getByRole('button', { name: 'Cancelar' }).click();
    await deleteQuestion(card, locked).waitFor({ state: 'detached' });
    assert.equal((await match(locked)).resultado?.goles_local, 1, 'cancelled: the result stays');

    // Its cut-off has passed: deleting the result leaves it closed, so nothing else is asked.
    await card.getByRole('button', { name: 'Borrar resultado' }).click();
    await deleteQuestion(card, locked).getByRole('button', { name: 'Sí, borrar el resultado' }).click();
    await card.getByText('Resultado borrado.').waitFor();
    await expectNoResult(locked, { apostable: false, why: 'still closed' });
  });

  step('moving the locked match to tomorrow is refused, in Spanish, and nothing moves', async () => {
    const { page } = admin;
    const card = await openCard(locked);
    await card.getByLabel(/Comienzo/).fill(localInput(new Date(Date.now() + 24 * HOUR)));
    await card.getByRole('button', { name: 'Cambiar horario' }).click();
    const refusal = card.getByRole('alert');
    await refusal.waitFor();
    const text = await refusal.textContent();
    assert.match(text, /Las jugadas de todos para este partido ya se mostraron\. Con ese horario el partido vuelve a aceptar jugadas/);
    assert.doesNotMatch(text, /apuestas_reveladas|error/i, 'a message for people, not a code');
    assert.equal(await refusal.getByRole('button', { name: 'Reintentar' }).count(), 0, 'no retry: it would be refused again');
    await refusal.getByRole('button', { name: 'Cambiar igual y reabrir las apuestas' }).waitFor();
    await checkScreen(page, 'admin-apuestas-reveladas');
    const now = await match(locked);
    assert.equal(now.inicio, locked.inicio, 'the kick-off did not move');
    assert.equal(now.apostable, false);
    await refusal.getByRole('button', { name: 'Cancelar' }).click();
    await refusal.waitFor({ state: 'detached' });
  });

  step('a result days before kick-off: warned, cancelled, then entered on purpose', async () => {
    const { page } = admin;
    const card = await openCard(early);
    await typeScore(card, early, 2, 2);
    await card.getByRole('button', { name: 'Guardar resultado' }).click();
    await earlyWarning(card).waitFor();
    await checkScreen(page, 'admin-resultado-antes-de-tiempo');
    await card.getByRole('button', { name: 'Cancelar' }).click();
    assert.equal((await match(early)).resultado, null, 'cancelled: no result');
    await card.getByRole('button', { name: 'Guardar resultado' }).click();
    await earlyWarning(card).getByRole('button', { name: 'Sí, cargar el resultado' }).click();
    await card.getByText('Resultado guardado.').waitFor();
    assert.equal((await match(early)).estado, 'finalizado');
  });

  step("deleting that early result would reopen betting: refused in Spanish, then done on purpose", async () => {
    const card = await openCard(early);
    await card.getByRole('button', { name: 'Borrar resultado' }).click();
    await deleteQuestion(card, early).getByRole('button', { name: 'Sí, borrar el resultado' }).click();
    const refusal = card.getByRole('alert');
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /ya se mostraron\. Si borrás el resultado, el partido vuelve a aceptar jugadas/);
    assert.equal((await match(early)).resultado?.goles_local, 2, 'refused: the result stays');

    await refusal.getByRole('button', { name: 'Borrar igual y reabrir las apuestas' }).click();
    await card.getByText('Resultado borrado. Quedó registrado que reabriste las apuestas.').waitFor();
    await expectNoResult(early, { apostable: true, why: 'reopened, on purpose' });
  });

  step("the list of the organiser's changes shows who did what and when, newest first", async () => {
    const { page } = admin;
    const list = page.getByRole('region', { name: 'Cambios del organizador' }).getByRole('list');
    const entries = list.getByRole('listitem');
    await entries.first().getByText(/Borró el resultado/).waitFor();
    const texts = (await entries.allTextContents()).slice(0, 5);
    const expected = [
      [`Borró el resultado de ${early.local} - ${early.visitante}`, '2 - 2 → sin resultado', 'Reabrió las apuestas'],
      [`Cargó el resultado de ${early.local} - ${early.visitante}`, 'sin resultado → 2 - 2'],
      [`Borró el resultado de ${locked.local} - ${locked.visitante}`, '1 - 0 → sin resultado'],
      [`Cargó el resultado de ${locked.local} - ${locked.visitante}`, 'sin resultado → 1 - 0'],
      [`Cambió el horario de ${locked.local} - ${locked.visitante}`, ' → '],
    ];
    expected.forEach((parts, i) => {
      for (const part of parts) assert.ok(texts[i]?.includes(part), `change ${i + 1} "${texts[i]}" lacks "${part}"`);
      assert.ok(texts[i].includes('Organizador Demo (admin@prode.test)'), `change ${i + 1} does not say who: "${texts[i]}"`);
    });
    assert.ok(!texts[2].includes('Reabrió'), 'deleting a result after the cut-off reopened nothing');
    const audit = await api(page, 'GET', '/api/auditoria?por_pagina=5');
    assert.deepEqual(audit.cambios.map((c) => [c.accion, c.partido_id, c.forzado]), [
      ['resultado_borrado', early.id, true],
      ['resultado_cargado', early.id, false],
      ['resultado_borrado', locked.id, false],
      ['resultado_cargado', locked.id, false],
      ['horario', locked.id, false],
    ]);
    for (const c of audit.cambios) assert.ok(Date.now() - Date.parse(c.cuando) < 10 * 60_000, `"when" is now: ${c.cuando}`);
    await page.getByRole('region', { name: 'Cambios del organizador' }).scrollIntoViewIfNeeded();
    await checkScreen(page, 'admin-cambios');
  });

  step('no CSP violation and no uncaught error happened', async () => {
    assert.deepEqual(admin.problems, []);
  });
});
