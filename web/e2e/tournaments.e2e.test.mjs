// Issue 19 end to end, against a running stack (PRODE_URL): the organiser brings in the 2026
// World Cup beside the seeded 2022 one through the admin screen (fixtures only, every kick-off
// shifted so that it starts tomorrow, previewed first) and makes it current; a player plays a
// match of each tournament in the browser; each tournament's table counts only its own
// matches, and a 2022 correction moves nobody in 2026's table. The organiser moves a 2026 kick-off
// by hand and imports the file again: the import keeps that kick-off and says so. A newcomer who
// signs in while the table's pages are cached is on every page of it within 2 s (issue 13).
// The 2026 file is openfootball's, at ../shared/data/openfootball from the project's root.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe } from 'node:test';
import { api } from './lib/api.mjs';
import { BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { settle } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const FILE_2026 = fileURLToPath(new URL('../../../shared/data/openfootball/2026/worldcup.json', import.meta.url));
const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo' };
const stamp = Date.now().toString(36);
const PLAYER = { email: `torneos-${stamp}@prode.test`, nombre: `Torneos ${stamp}` };
const DAY = 24 * 3600_000;

/** The signed-in player's points in the table on screen. */
async function ownPoints(page) {
  const own = page.locator('table.standings-table:not(.board__table) tr[aria-current="true"]');
  await own.waitFor();
  return (await own.locator('td.standings-table__points').textContent()).trim();
}

describe('Tournaments end to end', { timeout: 10 * 60_000 }, () => {
  const { player, admin, addPerson } = peopleForSuite({ player: 'torneos-jugador', admin: 'torneos-organizador' });
  let t2022, t2026;
  let days; // the shift of the 2026 import, in days
  const played = {}; // the match of each tournament the player predicts

  const step = stepsInOrder();

  /** The organiser chooses the 2026 file, fixtures only, shifted by `days`: the preview, once shown. */
  async function preview2026() {
    const { page } = admin;
    await page.locator('input[type="file"]').setInputFiles(FILE_2026);
    await page.getByRole('checkbox', { name: 'Cargar también los resultados del archivo' }).uncheck();
    await page.getByRole('group', { name: /Correr todos los horarios/ }).getByLabel('Días').fill(String(days));
    await page.getByRole('button', { name: 'Vista previa' }).click();
    const preview = page.getByRole('region', { name: 'Vista previa' });
    await preview.getByText(/todavía no se guardó nada/).waitFor();
    return preview;
  }

  /** The player predicts the first open match on /jugadas; returns its id. */
  async function predictFirstOpen(local, visitante) {
    const { page } = player;
    await page.goto(new URL('jugadas', BASE_URL).href);
    await page.getByRole('heading', { name: 'Tus jugadas' }).waitFor();
    await settle(page);
    const card = page.locator('li.match-card', { has: page.getByRole('button', { name: 'Guardar' }) }).first();
    const id = Number(await card.getAttribute('data-partido'));
    await card.locator('input').nth(0).fill(String(local));
    await card.locator('input').nth(1).fill(String(visitante));
    await card.getByRole('button', { name: 'Guardar' }).click();
    await card.getByText('Jugada guardada.').waitFor();
    return id;
  }

  step('the organiser and a player sign in; 2022 is the current tournament', async () => {
    await admin.page.goto(BASE_URL);
    await signInThroughPopup(admin, { ...ADMIN, demo: true });
    await player.page.goto(BASE_URL);
    await signInThroughPopup(player, PLAYER);
    const torneos = await api(admin.page, 'GET', '/api/torneos');
    t2022 = torneos.find((t) => t.actual);
    assert.ok(t2022, 'a current tournament');
    assert.ok(!torneos.some((t) => t.nombre === 'World Cup 2026'), 'no 2026 tournament yet');
  });

  step('the player plays a 2022 match and the organiser enters its result', async () => {
    played[2022] = await predictFirstOpen(2, 1);
    await api(admin.page, 'PUT', `/api/partidos/${played[2022]}/resultado`, { goles_local: 2, goles_visitante: 1 });
  });

  step('the organiser previews, then imports 2026: fixtures only, shifted to start tomorrow', async () => {
    const { page } = admin;
    const file = JSON.parse(await readFile(FILE_2026, 'utf8'));
    const first = Math.min(...file.matches.map((m) => Date.parse(`${m.date}T00:00:00Z`)));
    days = Math.ceil((Date.now() - first) / DAY) + 2; // the first day's matches start tomorrow or later
    await page.getByRole('link', { name: 'Organizar' }).click();
    await page.getByRole('heading', { name: 'Organizar el torneo' }).waitFor();
    const preview = await preview2026();
    assert.equal(await preview.getByRole('list', { name: 'Cambios' }).getByRole('listitem').count(), 104, '104 new matches previewed');
    const before = await api(page, 'GET', '/api/torneos');
    assert.ok(!before.some((t) => t.nombre === file.name), 'the preview saved nothing');
    await page.getByRole('button', { name: 'Importar' }).click();
    await page.getByText(/Importado\./).first().waitFor({ timeout: 30_000 });
    const torneos = await api(page, 'GET', '/api/torneos');
    t2026 = torneos.find((t) => t.nombre === file.name);
    assert.equal(t2026?.partidos, 104);
    assert.equal(t2026?.finalizados, 0, 'fixtures only: no result entered');
    const unplayed = await api(page, 'GET', `/api/partidos-sin-jugar?torneo=${t2026.id}`);
    assert.equal(unplayed.length, 104);
    assert.ok(unplayed.every((m) => m.torneo === t2026.id), 'only 2026 matches');
    assert.ok(unplayed.every((m) => Date.parse(m.inicio) > Date.now()), 'every kick-off moved to the future');
    const groups = unplayed.filter((m) => m.nombre_categoria.startsWith('Grupo'));
    assert.equal(groups.length, 72, "the group stage's 72 matches");
    assert.ok(groups.every((m) => m.apostable), 'the shifted import opens every group match (their teams are known)');
    assert.ok(unplayed.every((m) => m.apostable || !m.nombre_categoria.startsWith('Grupo')), 'only knock-outs, teams unknown, stay closed');
  });

  step('the organiser makes 2026 the current tournament', async () => {
    const { page } = admin;
    await page.getByRole('combobox', { name: 'Torneo actual', exact: true }).selectOption({ value: String(t2026.id) });
    await page.getByRole('button', { name: 'Cambiar el torneo actual' }).click();
    await page.getByText(/es ahora el torneo actual/).waitFor();
  });

  step('a re-import with the same shift keeps the kick-off the organiser moved by hand, and says so', async () => {
    const { page } = admin;
    const byNumber = async (n) => (await api(page, 'GET', `/api/partidos?torneo=${t2026.id}`)).find((m) => m.numero === n);
    const target = await byNumber(72);
    const untouched = await byNumber(71);
    // The organiser's list now shows 2026 (the current tournament); match 72 moves a day and a half-hour later.
    await page.reload();
    const card = page.locator(`li.admin-match[data-partido="${target.id}"]`);
    await card.locator('summary').click();
    const input = card.getByLabel('Comienzo (hora de este dispositivo)');
    const shown = await input.inputValue(); // "YYYY-MM-DDTHH:mm" in the browser's zone
    const later = new Date(Date.parse(`${shown}:00Z`) + DAY + 30 * 60_000).toISOString().slice(0, 16);
    await input.fill(later);
    await card.getByRole('button', { name: 'Cambiar horario' }).click();
    await card.getByText('Horario cambiado.').waitFor();
    const moved = (await byNumber(72)).inicio;
    assert.equal(Date.parse(moved) - Date.parse(target.inicio), DAY + 30 * 60_000, 'the kick-off moved');

    const preview = await preview2026();
    const kept = preview.getByRole('list', { name: 'Cambios' }).getByRole('listitem');
    assert.equal(await kept.count(), 1, 'the preview lists one change: the kept kick-off');
    assert.match(await kept.first().textContent(), /Se conserva lo editado a mano\s*Partido 72/);
    await page.getByRole('button', { name: 'Importar' }).click();
    await page.getByText(/Se conservó 1 cambio hecho a mano\./).first().waitFor({ timeout: 30_000 });
    assert.equal((await byNumber(72)).inicio, moved, "the re-import kept the organiser's kick-off");
    assert.equal((await byNumber(71)).inicio, untouched.inicio, 'an untouched match keeps the shifted kick-off');
  });

  step("the player's match list holds only 2026 matches; the player plays one", async () => {
    const unplayed = await api(player.page, 'GET', '/api/partidos-sin-jugar');
    assert.ok(unplayed.length > 0 && unplayed.every((m) => m.torneo === t2026.id), 'the default list is 2026 only');
    played[2026] = await predictFirstOpen(1, 1);
    assert.ok(unplayed.some((m) => m.id === played[2026]), 'the match played on screen is a 2026 one');
    await api(admin.page, 'PUT', `/api/partidos/${played[2026]}/resultado`, { goles_local: 1, goles_visitante: 1 });
  });

  step("each table counts its own tournament's points, and a 2022 correction moves nobody in 2026", async () => {
    const { page } = player;
    await page.goto(new URL('posiciones', BASE_URL).href);
    await settle(page);
    await page.getByRole('combobox', { name: 'Torneo' }).waitFor();
    await page.waitForFunction(() => document.querySelector('table.standings-table:not(.board__table) tr[aria-current="true"] td.standings-table__points')?.textContent.trim() === '10', null, { timeout: 15_000 });
    await page.goto(new URL(`posiciones?torneo=${t2022.id}`, BASE_URL).href);
    await settle(page);
    assert.equal(await ownPoints(page), '10', '2022: the exact 2-1');

    await api(admin.page, 'PUT', `/api/partidos/${played[2022]}/resultado`, { goles_local: 0, goles_visitante: 0 });
    await page.waitForFunction(() => document.querySelector('table.standings-table:not(.board__table) tr[aria-current="true"] td.standings-table__points')?.textContent.trim() === '0', null, { timeout: 15_000 });
    await page.goto(new URL('posiciones', BASE_URL).href);
    await settle(page);
    assert.equal(await ownPoints(page), '10', '2026 is unmoved by the 2022 correction');
    const results = await api(page, 'GET', '/api/resultados');
    assert.deepEqual(results.map((r) => r.partido), [played[2026]], "2026's results hold only its own match");
  });

  step('a newcomer who signs in while the pages are cached is on every page of the table within 2 s', async () => {
    // The player reads every page of the current table: each is now cached, in Redis and in the replica.
    const pages = async (page) =>
      page.evaluate(async () => {
        const first = await (await fetch('/api/posiciones?pagina=1&por_pagina=100')).json();
        const all = [first];
        for (let p = 2; p <= Math.ceil(first.total / 100); p++)
          all.push(await (await fetch(`/api/posiciones?pagina=${p}&por_pagina=100`)).json());
        return all;
      });
    const before = await pages(player.page);
    const newcomer = await addPerson('torneos-recien-llegado');
    const NEWCOMER = { email: `recien-${stamp}@prode.test`, nombre: `Recién ${stamp}` };
    await newcomer.page.goto(BASE_URL);
    await signInThroughPopup(newcomer, NEWCOMER);
    const signedIn = Date.now();
    // Another player's browser reads every page until all agree on the new total and one lists the newcomer.
    let after;
    for (;;) {
      after = await pages(player.page);
      const sameTable = after.every((p) => p.total === before[0].total + 1 && p.version === after[0].version);
      const listed = after.some((p) => p.posiciones.some((f) => f.nombre === NEWCOMER.nombre));
      if (sameTable && listed) break;
      assert.ok(Date.now() - signedIn < 2_000, `the newcomer is not on the table's pages 2 s after signing in: ${JSON.stringify(after.map((p) => [p.version, p.total]))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const last = after.at(-1).posiciones.at(-1);
    assert.equal(last.nombre, NEWCOMER.nombre, 'the newcomer is last, with 0 points');
    assert.equal(last.puntaje, 0);
    // And the newcomer finds themselves on screen.
    await newcomer.page.goto(new URL('posiciones?yo', BASE_URL).href);
    await settle(newcomer.page);
    assert.equal(await ownPoints(newcomer.page), '0');
    await newcomer.context?.close();
  });
});
