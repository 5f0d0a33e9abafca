// Issue 14 (accessibility and the phone home), against a running stack (PRODE_URL).
//
// After a click on a link, focus is on the new page's heading (a screen reader announces it), but
// not on the first load and not when only the query string changes; every data table has a
// caption; on a 390x844 phone the home's call to action is above the fold, before the rules; a
// result between teams with long names keeps its score apart from the names, without overflow.
// The long names come from a small tournament the organiser imports (not the current one, so the
// other suites' matches and tables are untouched).
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { api } from './lib/api.mjs';
import { BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { checkScreen, settle } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo', demo: true };
const stamp = Date.now().toString(36);
const PLAYER = { email: `accesible-${stamp}@prode.test`, nombre: `Accesible ${stamp}` };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// openfootball's names; the game shows them as "Bosnia y Herzegovina" and "Costa de Marfil".
const LONG_NAMES_FILE = {
  name: `Copa de nombres largos ${stamp}`,
  matches: [
    {
      round: 'Matchday 1',
      date: '2022-06-01',
      time: '16:00',
      team1: 'Bosnia and Herzegovina',
      team2: 'Ivory Coast',
      score: { ft: [1, 2] },
      group: 'Group A',
      ground: 'Estadio de prueba',
    },
  ],
};

/** What has focus, for messages: tag, text and id. */
const describeFocus = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent || '').trim().slice(0, 40)}"`;
  });

/** Waits (a few seconds at most) for focus to be on the page's h1 reading `heading`. */
async function expectFocusOnHeading(page, heading) {
  const ok = await page
    .waitForFunction(
      (text) => {
        const el = document.activeElement;
        return el?.tagName === 'H1' && el.closest('main') !== null && el.textContent.trim() === text;
      },
      heading,
      { timeout: 5_000, polling: 50 },
    )
    .then(() => true)
    .catch(() => false);
  assert.ok(ok, `focus is on the h1 "${heading}", not on ${await describeFocus(page)}`);
}

/** Whether two boxes are at least 4 px apart, side by side or one above the other. */
const apart = (a, b, gap = 4) =>
  a.right + gap <= b.left || b.right + gap <= a.left || a.bottom + gap <= b.top || b.bottom + gap <= a.top;

describe('Accessibility and the phone home', { timeout: 10 * 60_000 }, () => {
  const { player, admin } = peopleForSuite({ player: 'accesible-jugador', admin: 'accesible-organizador' });

  const step = stepsInOrder();

  const nav = (page) => page.getByRole('navigation', { name: 'Principal' });

  step('the first load leaves focus where the browser puts it', async () => {
    const { page } = player;
    await page.goto(BASE_URL);
    await page.getByRole('heading', { name: 'PRODE DE IDENTIDAD 2022' }).waitFor();
    await settle(page);
    assert.equal(await describeFocus(page), 'body');
    await signInThroughPopup(player, PLAYER);
  });

  step("on a phone, the home's call to action is above the fold, before the rules", async () => {
    const { page } = player;
    await page.setViewportSize(PHONE);
    await page.reload();
    await page.getByRole('heading', { name: `Hola ${PLAYER.nombre}` }).waitFor();
    await settle(page);
    const cta = await page.getByRole('link', { name: 'Hacé tus jugadas' }).boundingBox();
    const rules = await page.getByRole('heading', { name: 'Reglamento' }).boundingBox();
    assert.ok(cta && rules, 'the call to action and the rules are on the home');
    assert.ok(cta.y >= 0 && cta.y + cta.height <= PHONE.height, `the call to action (${Math.round(cta.y)}..${Math.round(cta.y + cta.height)} px) is inside the first ${PHONE.height} px`);
    assert.ok(cta.y < rules.y, 'the call to action comes before the rules');
    await checkScreen(page, 'a11y-inicio');
  });

  step("after a click on a link, focus is on the new page's heading", async () => {
    const { page } = player;
    await page.setViewportSize(DESKTOP);
    for (const [link, heading] of [
      ['Posiciones', 'Tabla de posiciones'],
      ['Resultados', 'Resultados'],
      ['Jugadas', 'Tus jugadas'],
      ['Preguntas', 'Preguntas'],
      ['Grupos', 'Mis grupos'],
    ]) {
      await nav(page).getByRole('link', { name: link }).click();
      await expectFocusOnHeading(page, heading);
    }
    await page.getByRole('link', { name: 'Prode de Identidad' }).click();
    await expectFocusOnHeading(page, `Hola ${PLAYER.nombre}`);
    // A link inside the page, then the browser's Back button: each lands on its page's heading.
    await page.getByRole('link', { name: 'Ver todos los resultados' }).click();
    await expectFocusOnHeading(page, 'Resultados');
    await page.goBack();
    await expectFocusOnHeading(page, `Hola ${PLAYER.nombre}`);
    // The keyboard goes on from the heading: the next Tab reaches what follows it ('Salir').
    await page.keyboard.press('Tab');
    assert.match(await describeFocus(page), /^button "Salir"/);
  });

  step("the organiser's screen, loaded on demand, also gets its heading focused", async () => {
    const { page } = admin;
    await page.goto(BASE_URL);
    await signInThroughPopup(admin, ADMIN);
    await nav(page).getByRole('link', { name: 'Organizar' }).click();
    await expectFocusOnHeading(page, 'Organizar el torneo');
  });

  step('every data table has a caption, the standings table included', async () => {
    const { page } = player;
    await nav(page).getByRole('link', { name: 'Posiciones' }).click();
    await expectFocusOnHeading(page, 'Tabla de posiciones');
    await settle(page);
    const caption = page.locator('table.standings-table:not(.board__table) caption');
    assert.equal(await caption.count(), 1, 'the standings table has a caption');
    assert.match((await caption.textContent()).trim(), /posiciones/i);
    for (const path of ['', 'posiciones']) {
      await page.goto(new URL(path, BASE_URL).href);
      await settle(page);
      const tables = await page.evaluate(() =>
        [...document.querySelectorAll('main table')].map((t) => t.caption?.textContent.trim() ?? ''),
      );
      assert.ok(tables.length > 0, `/${path} has tables`);
      assert.ok(tables.every((c) => c !== ''), `every table of /${path} has a caption: ${JSON.stringify(tables)}`);
    }
    await checkScreen(page, 'a11y-posiciones');
  });

  step("issue 16's screens: the leagues, a league, an invite link and the bonus questions", async () => {
    const { page } = player;
    await page.goto(new URL('grupos', BASE_URL).href);
    await page.getByRole('heading', { level: 1, name: 'Mis grupos' }).waitFor();
    await checkScreen(page, 'a11y-grupos');
    await page.getByLabel('Nombre del grupo').fill(`Grupo accesible ${stamp}`);
    await page.getByRole('button', { name: 'Crear grupo' }).click();
    await page.getByRole('heading', { level: 1, name: `Grupo accesible ${stamp}` }).waitFor();
    const link = await page.getByLabel('Enlace de invitación').inputValue();
    await checkScreen(page, 'a11y-grupo');
    await page.goto(link);
    await page.getByRole('button', { name: `Unirme a Grupo accesible ${stamp}` }).waitFor();
    await checkScreen(page, 'a11y-unirse');
    await page.goto(new URL('preguntas', BASE_URL).href);
    await page.getByRole('heading', { level: 1, name: 'Preguntas' }).waitFor();
    await checkScreen(page, 'a11y-preguntas');
  });

  step('a result between teams with long names keeps the score apart from the names', async () => {
    await api(admin.page, 'POST', '/api/partidos/importar', LONG_NAMES_FILE);
    const torneos = await api(admin.page, 'GET', '/api/torneos');
    const torneo = torneos.find((t) => t.nombre === LONG_NAMES_FILE.name);
    assert.ok(torneo && !torneo.actual, 'the imported tournament is there, and not the current one');

    const { page } = player;
    // The list of tournaments was read before the import: a fresh load reads it again.
    await page.reload();
    await settle(page);
    await nav(page).getByRole('link', { name: 'Resultados' }).click();
    await expectFocusOnHeading(page, 'Resultados');
    await settle(page);
    // Another tournament is only a query string away: the picker keeps focus.
    const picker = page.getByRole('combobox', { name: 'Torneo' });
    await picker.focus();
    await picker.selectOption(String(torneo.id));
    await page.waitForURL(new RegExp(`torneo=${torneo.id}`));
    const card = page.locator('li.result-card', { hasText: 'Bosnia y Herzegovina' });
    await card.waitFor({ timeout: 10_000 }).catch(() => undefined);
    const onPicker = await picker.evaluate((select) => document.activeElement === select);
    assert.ok(onPicker, `focus stays on the picker, not on ${await describeFocus(page)}`);
    // Scoring publishes the imported result within moments; if it was not there yet, ask again.
    for (let tries = 0; !(await card.isVisible()); tries++) {
      assert.ok(tries < 30, 'the imported result shows on the results screen');
      await page.waitForTimeout(1_000);
      await page.reload();
      await settle(page);
    }

    // Read as text, the score is a word of its own ("… Herzegovina 1 - 2 Costa …", not "Herzegovina1 - 2").
    const scoreLine = (await card.locator('.result-card__score').textContent()).replace(/\s+/g, ' ').trim();
    assert.equal(scoreLine, 'Bosnia y Herzegovina 1 - 2 Costa de Marfil');

    // Laid out on a desktop, a phone, and narrower phones (at 360 px the card is as narrow as the
    // home's results block at 390 px; at 320 px, narrower still): the score stands apart from both
    // names, the names stay inside the card, and they wrap between words, never inside one.
    for (const viewport of [DESKTOP, PHONE, { width: 360, height: 800 }, { width: 320, height: 700 }]) {
      await page.setViewportSize(viewport);
      await settle(page);
      const layout = await card.evaluate((li) => {
        const box = (el) => el.getBoundingClientRect().toJSON();
        /** The words of an element's text that the layout split over two lines. */
        const brokenWords = (el) => {
          const text = el.firstChild;
          const broken = [];
          for (const match of text.textContent.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(text, match.index);
            range.setEnd(text, match.index + match[0].length);
            if (range.getClientRects().length > 1) broken.push(match[0]);
          }
          return broken;
        };
        return {
          card: box(li),
          score: box(li.querySelector('.result-card__goals')),
          names: [...li.querySelectorAll('.team__name')].map((n) => ({
            text: n.textContent,
            box: box(n),
            overflows: n.scrollWidth > n.clientWidth + 1,
            brokenWords: brokenWords(n),
          })),
        };
      });
      const size = `${viewport.width}x${viewport.height}`;
      for (const name of layout.names) {
        assert.ok(apart(name.box, layout.score), `${size}: "${name.text}" ${JSON.stringify(name.box)} touches the score ${JSON.stringify(layout.score)}`);
        assert.ok(!name.overflows, `${size}: "${name.text}" overflows its box`);
        assert.ok(name.box.left >= layout.card.left && name.box.right <= layout.card.right, `${size}: "${name.text}" sticks out of the card`);
        assert.deepEqual(name.brokenWords, [], `${size}: "${name.text}" wraps inside a word`);
      }
    }
    await page.setViewportSize(DESKTOP);
    await checkScreen(page, 'a11y-resultado-nombres-largos');
  });

  step('no CSP violation and no uncaught error happened in any page', async () => {
    assert.deepEqual([...player.problems, ...admin.problems], []);
  });
});
