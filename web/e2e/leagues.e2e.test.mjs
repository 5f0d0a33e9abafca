// Leagues ("grupos", issue 16) in Chromium, against a running stack: PRODE_URL, default
// http://localhost:8080/.
//
// The organiser makes a tournament of its own (one open match four days ahead), so the tables
// this suite reads are its own. Ana creates a league there on /grupos and copies its invite link;
// Beto opens the link signed out, signs in through the popup on that very page (the link
// survives) and joins with one click. Both predict, the organiser enters the result, and the
// league's table shows exactly the main table's points for its two members, ranked within the
// league, while the main table has more players. Someone who is not a member is refused the
// league's page. Beto leaves; a new link replaces the old one (the old one is refused in
// Spanish); Beto joins again with it; Ana removes him; a revoked link is refused; Ana deletes the
// league. Every new screen is checked at 1280x800 and 390x844 (overflow, clipped text, axe).
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { apiAs, callAs, openMatchIn } from './lib/api.mjs';
import { BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { checkScreen, settle } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo', demo: true };
const stamp = Date.now().toString(36);
const ANA = { email: `grupos-ana-${stamp}@prode.test`, nombre: `Ana Grupos ${stamp}` };
const BETO = { email: `grupos-beto-${stamp}@prode.test`, nombre: `Beto Grupos ${stamp}` };
const TORNEO = `Copa de grupos ${stamp}`;
const LIGA = `La oficina ${stamp}`;
const INVALIDA = 'El enlace de invitación no es válido o fue revocado.';
const NO_MIEMBRO = 'Solo quienes integran el grupo pueden ver su tabla.';

describe('Leagues: create, join by link, the league table, leave, remove, revoke', { timeout: 10 * 60_000 }, () => {
  const { ana, beto, admin } = peopleForSuite({ ana: 'grupos-ana', beto: 'grupos-beto', admin: 'grupos-organizador' });
  const step = stepsInOrder();
  const state = {}; // torneo, partido, grupo (id), link

  /** Every row of a table (the main one of a tournament, or a league's), all pages. */
  async function allRows(person, path) {
    const rows = [];
    for (let pagina = 1; ; pagina++) {
      const sep = path.includes('?') ? '&' : '?';
      const page = await apiAs(person, 'GET', `${path}${sep}pagina=${pagina}&por_pagina=100`);
      rows.push(...page.posiciones);
      if (rows.length >= page.total || page.posiciones.length === 0) return { total: page.total, rows };
    }
  }

  step('the organiser makes a tournament of its own with an open match', async () => {
    await admin.page.goto(BASE_URL);
    await signInThroughPopup(admin, ADMIN);
    const partido = await openMatchIn(admin, TORNEO);
    assert.equal(partido.apostable, true);
    state.torneo = partido.torneo_id;
    state.partido = partido;
  });

  step('Ana creates a league on /grupos and finds its invite link', async () => {
    const { page } = ana;
    await page.goto(BASE_URL);
    await signInThroughPopup(ana, ANA);
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Grupos' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mis grupos' }).waitFor();
    await page.getByRole('combobox', { name: 'Torneo' }).selectOption(String(state.torneo));
    await page.waitForURL(new RegExp(`torneo=${state.torneo}`));
    await page.getByText('Todavía no estás en ningún grupo.', { exact: false }).waitFor();
    await checkScreen(page, 'grupos-vacio');
    await page.getByLabel('Nombre del grupo').fill(LIGA);
    await page.getByRole('button', { name: 'Crear grupo' }).click();
    await page.getByRole('heading', { level: 1, name: LIGA }).waitFor();
    state.grupo = Number(/\/grupos\/(\d+)/.exec(page.url())[1]);
    state.link = await page.getByLabel('Enlace de invitación').inputValue();
    assert.match(state.link, /\/unirse\/[A-Za-z0-9_-]{22}$/, 'an unguessable code: 16 random bytes, base64url');
    const grupo = await apiAs(ana, 'GET', `/api/grupos/${state.grupo}`);
    assert.deepEqual([grupo.torneo, grupo.miembros, grupo.es_dueno], [state.torneo, 1, true]);
    // She predicts the match: 2-1.
    await apiAs(ana, 'POST', `/api/jugadores/${encodeURIComponent(ANA.email)}/apuestas`, { partido: state.partido.id, goles_local: 2, goles_visitante: 1 });
  });

  step('Beto opens the link signed out, signs in through the popup on that page, and joins with one click', async () => {
    const { page } = beto;
    await page.goto(state.link);
    await page.getByRole('heading', { level: 1, name: 'Invitación a un grupo' }).waitFor();
    await page.getByText(LIGA, { exact: true }).waitFor();
    await checkScreen(page, 'unirse-sin-sesion');
    assert.equal(await page.getByRole('button', { name: /^Unirme/ }).count(), 0, 'no way to join before signing in');
    await signInThroughPopup(beto, { ...BETO, landsOn: 'Invitación a un grupo' });
    // The page stayed, link and all: one click joins.
    const unirme = page.getByRole('button', { name: `Unirme a ${LIGA}` });
    await unirme.waitFor({ timeout: 15_000 });
    assert.equal(page.url(), state.link, 'the invite link survived the sign-in');
    await unirme.click();
    await page.getByRole('heading', { level: 1, name: LIGA }).waitFor();
    assert.match(page.url(), new RegExp(`/grupos/${state.grupo}$`));
    assert.equal(await page.getByRole('button', { name: 'Salir del grupo' }).count(), 1);
    assert.equal(await page.getByLabel('Enlace de invitación').count(), 0, 'only the owner sees the link');
    // Joining again is no error and no second membership.
    const again = await apiAs(beto, 'POST', '/api/grupos/unirse', { codigo: state.link.split('/').pop() });
    assert.equal(again.id, state.grupo);
    assert.equal((await apiAs(beto, 'GET', `/api/grupos/${state.grupo}`)).miembros, 2);
    await apiAs(beto, 'POST', `/api/jugadores/${encodeURIComponent(BETO.email)}/apuestas`, { partido: state.partido.id, goles_local: 0, goles_visitante: 0 });
  });

  step("after the result, the league's table has the main table's points for its members, ranked within the league", async () => {
    // The organiser predicts too, outside the league: the main table has a row the league's has not.
    await apiAs(admin, 'POST', `/api/jugadores/${encodeURIComponent(ADMIN.email)}/apuestas`, { partido: state.partido.id, goles_local: 3, goles_visitante: 0 });
    // 2-1: Ana's exact prediction (10), Beto's 0-0 scores nothing, the organiser's 3-0 the winner (5).
    await apiAs(admin, 'PUT', `/api/partidos/${state.partido.id}/resultado`, { goles_local: 2, goles_visitante: 1 });
    const { page } = ana;
    await page.goto(new URL(`grupos/${state.grupo}`, BASE_URL).href);
    const anaRow = page.locator('table.standings-table:not(.board__table) tbody tr', { hasText: ANA.nombre });
    // Scoring follows the result within moments; the page follows live.
    for (let tries = 0; !(await anaRow.textContent({ timeout: 5_000 }).catch(() => '')).includes('10'); tries++) {
      assert.ok(tries < 30, "Ana's 10 points reach the league's table");
      await page.waitForTimeout(1_000);
      if (tries % 5 === 4) await page.reload();
    }
    const league = await allRows(ana, `/api/grupos/${state.grupo}/posiciones`);
    const main = await allRows(ana, `/api/posiciones?torneo=${state.torneo}`);
    assert.equal(league.total, 2, 'the league has its two members');
    assert.ok(main.total > league.total, `the main table has more players (${main.total}) than the league`);
    const mainOf = Object.fromEntries(main.rows.map((r) => [r.id, r]));
    assert.deepEqual(
      league.rows.map((r) => [r.nombre, r.puntaje, r.bonus]),
      league.rows.map((r) => [mainOf[r.id].nombre, mainOf[r.id].puntaje, mainOf[r.id].bonus]),
      "each member's points are the main table's",
    );
    assert.deepEqual(league.rows.map((r) => [r.posicion, r.nombre, r.puntaje]), [[1, ANA.nombre, 10], [2, BETO.nombre, 0]]);
    // On screen: the same rows, in the same order, with the Bonus column.
    const screenRows = await page.locator('table.standings-table:not(.board__table) tbody tr').allTextContents();
    assert.equal(screenRows.length, 2);
    assert.match(screenRows[0], new RegExp(`^1${ANA.nombre}Vos010$`));
    assert.match(screenRows[1], new RegExp(`^2${BETO.nombre}00☆$`)); // ☆: his pin button (Ana's own row has none)
    const headers = await page.locator('table.standings-table:not(.board__table) thead th').allTextContents();
    assert.deepEqual(headers.slice(0, 4), ['#', 'Nombre de usuario', 'Bonus', 'Puntaje']);
    await checkScreen(page, 'grupo-dueno');
  });

  step("someone who is not a member is refused the league's page and table", async () => {
    const { page } = admin;
    await page.goto(new URL(`grupos/${state.grupo}`, BASE_URL).href);
    await page.getByRole('alert').filter({ hasText: NO_MIEMBRO }).waitFor();
    assert.equal(await page.locator('table.standings-table:not(.board__table)').count(), 0);
    const res = await callAs(admin, 'GET', `/api/grupos/${state.grupo}/posiciones`);
    assert.deepEqual([res.status, res.body?.error], [403, 'no_es_miembro']);
    await checkScreen(page, 'grupo-ajeno');
  });

  step("Beto's /grupos lists the league with his place in it", async () => {
    const { page } = beto;
    // The league is in the suite's own tournament, not the current one: /grupos lists it there.
    await page.goto(new URL(`grupos?torneo=${state.torneo}`, BASE_URL).href);
    const item = page.locator('.league-list__item', { hasText: LIGA });
    await item.waitFor();
    assert.match(await item.textContent(), /2 integrantes · Tu posición: 2/);
    await checkScreen(page, 'grupos-lista');
  });

  step('Beto leaves the league', async () => {
    const { page } = beto;
    await page.goto(new URL(`grupos/${state.grupo}`, BASE_URL).href);
    await page.getByRole('button', { name: 'Salir del grupo' }).click();
    await page.getByRole('button', { name: 'Sí, salir' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mis grupos' }).waitFor();
    const res = await callAs(beto, 'GET', `/api/grupos/${state.grupo}`);
    assert.deepEqual([res.status, res.body?.error], [403, 'no_es_miembro']);
    const league = await allRows(ana, `/api/grupos/${state.grupo}/posiciones`);
    assert.deepEqual(league.rows.map((r) => r.nombre), [ANA.nombre]);
  });

  step('a new link replaces the old one, which is refused in Spanish; Beto joins again with the new one', async () => {
    const { page } = ana;
    await page.goto(new URL(`grupos/${state.grupo}`, BASE_URL).href);
    const input = page.getByLabel('Enlace de invitación');
    await input.waitFor();
    await page.getByRole('button', { name: 'Generar nuevo enlace' }).click();
    await page.waitForFunction((old) => document.querySelector('input[readonly]')?.value !== old, state.link);
    const nuevo = await input.inputValue();
    assert.notEqual(nuevo, state.link);

    await beto.page.goto(state.link);
    await beto.page.getByRole('alert').filter({ hasText: INVALIDA }).waitFor();
    assert.equal(await beto.page.getByRole('button', { name: /^Unirme/ }).count(), 0);
    await checkScreen(beto.page, 'unirse-invalido');
    const old = await callAs(beto, 'POST', '/api/grupos/unirse', { codigo: state.link.split('/').pop() });
    assert.deepEqual([old.status, old.body?.error, old.body?.mensaje], [404, 'invitacion_invalida', INVALIDA]);

    await beto.page.goto(nuevo);
    await beto.page.getByRole('button', { name: `Unirme a ${LIGA}` }).click();
    await beto.page.getByRole('heading', { level: 1, name: LIGA }).waitFor();
    state.link = nuevo;
  });

  step('Ana removes Beto; then she revokes the link, and it is refused', async () => {
    const { page } = ana;
    await page.reload();
    await page.getByRole('button', { name: `Quitar a ${BETO.nombre}` }).click();
    await page.getByRole('button', { name: 'Sí, quitar' }).click();
    await page.getByText(`${BETO.nombre} ya no está en el grupo.`).waitFor();
    const res = await callAs(beto, 'GET', `/api/grupos/${state.grupo}/posiciones`);
    assert.deepEqual([res.status, res.body?.error], [403, 'no_es_miembro']);

    await page.getByRole('button', { name: 'Revocar enlace' }).click();
    await page.getByText('El enlace está revocado', { exact: false }).waitFor();
    await beto.page.goto(state.link);
    await beto.page.getByRole('alert').filter({ hasText: INVALIDA }).waitFor();
    const revoked = await callAs(beto, 'POST', '/api/grupos/unirse', { codigo: state.link.split('/').pop() });
    assert.deepEqual([revoked.status, revoked.body?.error], [404, 'invitacion_invalida']);
    // The owner cannot leave: she may delete it.
    const leave = await callAs(ana, 'DELETE', `/api/grupos/${state.grupo}/miembros/${(await apiAs(ana, 'GET', '/api/sesion')).id}`);
    assert.deepEqual([leave.status, leave.body?.error], [409, 'dueno_no_puede_salir']);
  });

  step('Ana renames the league, then deletes it', async () => {
    const { page } = ana;
    const nombre = page.getByLabel('Nombre del grupo');
    await nombre.fill(`${LIGA} 2`);
    await page.getByRole('button', { name: 'Cambiar nombre' }).click();
    await page.getByRole('heading', { level: 1, name: `${LIGA} 2` }).waitFor();
    await page.getByRole('button', { name: 'Borrar grupo' }).click();
    await page.getByRole('button', { name: 'Sí, borrar el grupo' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mis grupos' }).waitFor();
    await settle(page);
    const res = await callAs(ana, 'GET', `/api/grupos/${state.grupo}`);
    assert.deepEqual([res.status, res.body?.error], [404, 'grupo_no_encontrado']);
  });

  step('no CSP violation and no uncaught error happened in any page', async () => {
    assert.deepEqual([...ana.problems, ...beto.problems, ...admin.problems], []);
  });
});
