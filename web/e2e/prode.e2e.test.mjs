// The end-to-end scenario of issue 3 (acceptance 2), against a running stack (`make up`, or the
// stack of `make test-e2e`): PRODE_URL, default http://localhost:8080/.
//
// A new player signs in through the dev popup, predicts two matches and sees them in brackets,
// triggers both alerts, changes a prediction; an organiser (a second browser context, /admin)
// moves one match inside its cut-off and enters the result of the other; the player is refused on
// the first, sees the result turn into points in the standings and the results, and signs out.
// Every screen is screenshot at 1280x800 and 390x844, checked for overflow, clipped text and
// accessibility, and the run fails on any CSP violation.
import assert from 'node:assert/strict';
import { before, describe } from 'node:test';
import { acceptDialogs, BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { checkScreen, settle } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const ALERT_LOCAL = 'Te falta poner el resultado del equipo local.';
const ALERT_VISITANTE = 'Te falta poner el resultado del equipo visitante.';
const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo' };

const stamp = Date.now().toString(36);
const PLAYER = { email: `jugador-${stamp}@prode.test`, nombre: `Jugadora ${stamp}` };

const pad = (n) => String(n).padStart(2, '0');
/** A datetime-local value in this machine's zone, which is also the browser's. */
const localInput = (date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

/** Retries `check` (reloading the page before each try) until it passes or the time runs out. */
async function eventually(page, check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.waitForTimeout(1_000);
      await page.reload();
      await settle(page);
    }
  }
}

describe('Prode end to end', { timeout: 10 * 60_000 }, () => {
  const { player, admin } = peopleForSuite({ player: 'jugador', admin: 'organizador' });
  const dialogs = [];
  before(() => acceptDialogs(player.page, dialogs));
  // Filled as the scenario goes: the two matches the player predicts.
  const matchA = {}; // predicted, changed, then moved inside the cut-off: the change is refused
  const matchB = {}; // predicted, then its result entered: points

  const step = stepsInOrder();

  step('the landing shows the specification texts and the dev-mode notice', async () => {
    const { page } = player;
    await page.goto(BASE_URL);
    await page.getByRole('heading', { name: 'PRODE DE IDENTIDAD 2022' }).waitFor();
    await page.getByRole('button', { name: 'Ingresar con Google' }).waitFor();
    assert.ok(await page.getByText('Modo de desarrollo: el ingreso usa cuentas de prueba, no Google.').isVisible());
    assert.ok(await page.getByRole('main').getByRole('link', { name: 'Instagram' }).isVisible());
    // The automatic popup on load was blocked: no error shows, the button stays.
    assert.equal(await page.getByRole('alert').count(), 0);
    await checkScreen(page, 'landing');
  });

  step('a new player signs in through the popup and lands on the home', async () => {
    const { page } = player;
    await signInThroughPopup(player, PLAYER);
    await page.getByRole('button', { name: 'Salir' }).waitFor();
    await page.getByRole('heading', { name: 'Reglamento' }).waitFor();
    await page.getByRole('heading', { name: 'Tabla de posiciones' }).waitFor();
    await page.getByRole('heading', { name: 'Resultados' }).waitFor();
    await checkScreen(page, 'home');
  });

  step('the player predicts two matches and sees them in brackets', async () => {
    const { page } = player;
    await page.getByRole('link', { name: 'Hacé tus jugadas' }).click();
    await page.getByRole('heading', { name: 'Tus jugadas' }).waitFor();
    await settle(page);
    const open = page.locator('li.match-card', { has: page.getByRole('button', { name: 'Guardar' }) });
    assert.ok((await open.count()) >= 3, 'at least three matches take predictions');
    for (const [match, index] of [[matchA, 0], [matchB, 1]]) {
      const card = open.nth(index);
      match.id = await card.getAttribute('data-partido');
      match.local = (await card.locator('.team-line__name').nth(0).textContent()).trim();
      match.visitante = (await card.locator('.team-line__name').nth(1).textContent()).trim();
    }
    const card = (m) => page.locator(`li.match-card[data-partido="${m.id}"]`);
    await save(card(matchA), 2, 1);
    await card(matchA).getByText('(2 - 1)').waitFor();
    await save(card(matchB), 0, 0);
    await card(matchB).getByText('(0 - 0)').waitFor();
    // Both stay after a reload: they come from the server.
    await page.reload();
    await card(matchA).getByText('(2 - 1)').waitFor();
    await card(matchB).getByText('(0 - 0)').waitFor();
  });

  step("the player triggers both alerts, word for word, and nothing is saved", async () => {
    const { page } = player;
    const third = page.locator('li.match-card', { has: page.getByRole('button', { name: 'Guardar' }) }).nth(2);
    await third.getByText('Sin jugada').waitFor();
    await third.getByRole('button', { name: 'Guardar' }).click();
    await third.locator('input').nth(0).fill('1');
    await third.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForTimeout(300);
    assert.deepEqual(dialogs, [ALERT_LOCAL, ALERT_VISITANTE]);
    assert.ok(await third.getByText('Sin jugada').isVisible());
  });

  step('the player changes a prediction', async () => {
    const { page } = player;
    const card = page.locator(`li.match-card[data-partido="${matchA.id}"]`);
    await save(card, 3, 1);
    await card.getByText('(3 - 1)').waitFor();
    await checkScreen(page, 'jugadas');
  });

  step('an organiser signs in and moves match A inside its cut-off', async () => {
    const { page } = admin;
    await page.goto(BASE_URL);
    await signInThroughPopup(admin, { ...ADMIN, demo: true });
    await page.getByRole('link', { name: 'Organizar' }).click();
    await page.getByRole('heading', { name: 'Organizar el torneo' }).waitFor();
    await settle(page);
    await checkScreen(page, 'admin');
    const card = await openAdminCard(page, matchA);
    await card.getByLabel(/Comienzo/).fill(localInput(new Date(Date.now() + 30 * 60_000)));
    await card.getByRole('button', { name: 'Cambiar horario' }).click();
    await card.getByText('Horario cambiado.').waitFor();
  });

  step('the organiser enters the result of match B', async () => {
    const { page } = admin;
    const card = await openAdminCard(page, matchB);
    await enterResult(card, 0, 0);
    await card.getByText('Resultado guardado.').waitFor();
    await checkScreen(page, 'admin-partido');
  });

  step("the player's change of match A is refused, in Spanish, next to the match", async () => {
    const { page } = player;
    const card = page.locator(`li.match-card[data-partido="${matchA.id}"]`);
    // The list on screen predates the organiser's change: the inputs are still there.
    await card.locator('input').nth(0).fill('0');
    await card.locator('input').nth(1).fill('0');
    await card.getByRole('button', { name: 'Guardar' }).click();
    const refusal = card.getByRole('alert');
    await refusal.waitFor();
    const text = (await refusal.textContent()).replace('Reintentar', '').trim();
    assert.ok(text.length > 10, `a message is shown: "${text}"`);
    assert.doesNotMatch(text, /apuesta_cerrada|error/i, 'a message for people, not a code');
    // Sending it again would be refused again: no 'Reintentar' (e2e/matchday.e2e.test.mjs).
    assert.equal(await refusal.getByRole('button', { name: 'Reintentar' }).count(), 0);
    // The prediction is unchanged, and the reloaded list no longer offers inputs for the match.
    await card.getByText('(3 - 1)').waitFor();
    await card.locator('input').first().waitFor({ state: 'detached', timeout: 15_000 });
    await checkScreen(page, 'jugadas-rechazo');
  });

  step("the result turns into points in the standings, with the rank filled", async () => {
    const { page } = player;
    await page.goto(new URL('posiciones', BASE_URL).href);
    await settle(page);
    await eventually(page, async () => {
      const own = page.locator('table.standings-table:not(.board__table) tr[aria-current="true"]');
      assert.equal(await own.count(), 1, "the player's row is highlighted");
      const cells = (await own.getByRole('cell').allTextContents()).map((c) => c.trim());
      assert.match(cells[0], /^\d+$/, 'rank filled');
      assert.ok(cells[1].startsWith(PLAYER.nombre));
      assert.equal(cells[2], '0', 'no bonus questions answered: a Bonus of 0');
      assert.equal(cells[3], '10', 'exact result: 10 points');
    });
    await page.getByRole('button', { name: 'Ver mi posición' }).click();
    await page.getByText(/Estás en el puesto \d+ con 10 puntos/).waitFor();
    await checkScreen(page, 'posiciones');
  });

  step('an open standings page shows a corrected result within 2 s, with no reload (live updates)', async () => {
    const own = player.page.locator('table.standings-table:not(.board__table) tr[aria-current="true"]');
    const ownPoints = async () => (await own.locator('td.standings-table__points').textContent()).trim();
    assert.equal(await ownPoints(), '10');
    // A reload would lose this mark: the page must change by itself.
    await player.page.evaluate(() => { window.prodeNoReload = true; });
    // Match B's card is still open from entering its result.
    const card = admin.page.locator(`li.admin-match[data-partido="${matchB.id}"]`);
    for (const [local, visitante, points] of [[1, 0, '2'], [0, 0, '10']]) {
      const answered = admin.page.waitForResponse(
        (r) => r.url().endsWith(`/api/partidos/${matchB.id}/resultado`) && r.request().method() === 'PUT',
      );
      await enterResult(card, local, visitante);
      assert.equal((await answered).status(), 200);
      const saved = Date.now();
      await player.page.waitForFunction(
        (want) => document.querySelector('table.standings-table:not(.board__table) tr[aria-current="true"] td.standings-table__points')?.textContent.trim() === want,
        points,
        { timeout: 10_000, polling: 50 },
      );
      const took = Date.now() - saved;
      assert.ok(took <= 2_000, `the open page showed ${points} points ${took} ms after the result was saved (goal: 2 s)`);
      assert.equal(await player.page.evaluate(() => window.prodeNoReload), true, 'the page was not reloaded');
    }
  });

  step('the results screen shows the score, the prediction and its points', async () => {
    const { page } = player;
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Resultados' }).click();
    await page.getByRole('heading', { name: 'Resultados', level: 1 }).waitFor();
    await settle(page);
    await eventually(page, async () => {
      const card = page.locator('li.result-card', { hasText: matchB.local }).filter({ hasText: matchB.visitante });
      assert.equal(await card.count(), 1);
      assert.match(await card.textContent(), /0 - 0/);
      assert.match(await card.textContent(), /Tu jugada: 0 - 0 · 10 puntos/);
    });
    await checkScreen(page, 'resultados');
  });

  step("the home shows both blocks, and 'Salir' signs out for good", async () => {
    const { page } = player;
    await page.goto(BASE_URL);
    await page.getByRole('heading', { name: `Hola ${PLAYER.nombre}` }).waitFor();
    await settle(page);
    await checkScreen(page, 'home-con-puntos');
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.getByRole('button', { name: 'Ingresar con Google' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'PRODE DE IDENTIDAD 2022' }).waitFor();
    // Signed out, /jugadas has no screen of its own: back to the landing.
    await page.goto(new URL('jugadas', BASE_URL).href);
    await page.getByRole('button', { name: 'Ingresar con Google' }).waitFor();
  });

  step('an unknown path gets the app (SPA fallback) with its not-found screen', async () => {
    const { page } = player;
    const response = await page.goto(new URL('no-existe/tampoco', BASE_URL).href);
    assert.equal(response.status(), 200);
    await page.getByRole('heading', { name: 'No encontramos esta página' }).waitFor();
    await checkScreen(page, 'no-encontrada');
  });

  step('no CSP violation and no uncaught error happened in any page', async () => {
    assert.deepEqual([...player.problems, ...admin.problems], []);
  });
});

async function save(card, local, visitante) {
  await card.locator('input').nth(0).fill(String(local));
  await card.locator('input').nth(1).fill(String(visitante));
  await card.getByRole('button', { name: 'Guardar' }).click();
  await card.getByText('Jugada guardada.').waitFor();
}

async function openAdminCard(page, match) {
  const card = page.locator(`li.admin-match[data-partido="${match.id}"]`);
  if ((await card.locator('details').getAttribute('open')) === null) await card.locator('summary').click();
  await card.getByRole('button', { name: 'Cambiar horario' }).waitFor();
  return card;
}

async function enterResult(card, local, visitante) {
  await card.getByLabel(`Goles de ${await teamName(card, 0)}`, { exact: true }).fill(String(local));
  await card.getByLabel(`Goles de ${await teamName(card, 1)}`, { exact: true }).fill(String(visitante));
  await card.getByRole('button', { name: 'Guardar resultado' }).click();
  // Match B has not kicked off: the admin screen asks first (issue 14), and the organiser confirms.
  await card.getByRole('button', { name: 'Sí, cargar el resultado' }).click();
  await card.locator('.form-feedback, [role="alert"]').first().waitFor();
}

/** The team names from the result form's own labels ("Goles de X"). */
async function teamName(card, index) {
  const label = await card.locator('fieldset').first().locator('label').nth(index).textContent();
  return label.replace(/^Goles de /, '').trim();
}
