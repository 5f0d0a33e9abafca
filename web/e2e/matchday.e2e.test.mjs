// The player's matchday on /jugadas (issue 14), against a running stack: PRODE_URL, default
// http://localhost:8080/.
//
// An organiser adds a few open matches to the current tournament (tomorrow, in three days, in
// four days, and today when the day has room); a new player opens /jugadas and finds the matches
// under day headings ("Hoy", "Mañana", "sábado 21 de noviembre") and group or stage headings,
// each with "cierra HH:MM" in the browser's time; a saved prediction fills the inputs after a
// reload, so a change is one number; "Te faltan N de M jugadas." and the "sin jugada" filter.
// Then every way a save can fail, as the player sees it: offline (the typed score stays, a
// Spanish message, 'Reintentar' works once back online), 1.5 goals (player language, no
// 'Reintentar'; a later alert takes the box away), a match closed meanwhile (no 'Reintentar',
// the message stays when the list reloads), a match played meanwhile (its own message, not the
// cut-off's), and a session ended elsewhere (the typed score survives the sign-in, which comes
// back to /jugadas). Screens are checked at 1280x800 and 390x844 (overflow, clipped text, axe).
import assert from 'node:assert/strict';
import { before, describe } from 'node:test';
import { acceptDialogs, BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { checkScreen, settle } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const ORIGIN = new URL(BASE_URL).origin;
const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo' };
const stamp = Date.now().toString(36);
const PLAYER = { email: `jornada-${stamp}@prode.test`, nombre: `Jornada ${stamp}` };
const STAGE = `Fecha de prueba ${stamp}`;
const ALERT_LOCAL = 'Te falta poner el resultado del equipo local.';
const GOLES = 'Los goles tienen que ser un número entero de 0 a 99.';
const CUT_OFF = /1 hora antes/;

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A local time `days` from today at hh:mm (this machine's zone, which is also the browser's). */
function localDay(days, hh, mm = 0) {
  const d = new Date();
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days, hh, mm);
}

describe('The matchday on /jugadas', { timeout: 10 * 60_000 }, () => {
  const { player, admin } = peopleForSuite({ player: 'jugador', admin: 'organizador' });
  const dialogs = [];
  before(() => acceptDialogs(player.page, dialogs));
  // The organiser's new matches, by what the scenario does with them: {id, local, visitante}.
  const m = {};

  const step = stepsInOrder();

  /** One organiser call through the admin's browser context (its session cookie). */
  async function asAdmin(method, path, data) {
    const res = await admin.context.request.fetch(new URL(path.replace(/^\//, ''), BASE_URL).href, {
      method,
      data,
      headers: { Origin: ORIGIN },
    });
    assert.ok(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`);
    return res.json();
  }

  /** A call as the player (their session cookie). */
  async function asPlayer(path) {
    const res = await player.context.request.get(new URL(path.replace(/^\//, ''), BASE_URL).href);
    assert.ok(res.ok(), `GET ${path}: ${res.status()}`);
    return res.json();
  }

  const card = (match) => player.page.locator(`li.match-card[data-partido="${match.id}"]`);

  step('the organiser adds open matches for today, tomorrow and the coming days', async () => {
    await admin.page.goto(BASE_URL);
    await signInThroughPopup(admin, { ...ADMIN, demo: true });
    const torneos = await asAdmin('GET', '/api/torneos');
    const actual = torneos.find((t) => t.actual);
    assert.ok(actual, 'a current tournament is seeded');
    const equipos = await asAdmin('GET', '/api/partidos/equipos');
    assert.ok(equipos.length >= 16, 'teams are seeded');
    // Today only when the kick-off (and its cut-off, one hour earlier) still fits in the day.
    const hoy = new Date(Date.now() + 2 * 3600_000 + 10 * 60_000);
    const plan = [
      ['recarga', localDay(1, 12)],
      ['sinConexion', localDay(1, 15)],
      ['golesRaros', localDay(1, 18)],
      ['cerrado', localDay(3, 15)],
      ['jugado', localDay(3, 18)],
      ['sesion', localDay(4, 15)],
    ];
    if (hoy.getDate() === new Date().getDate()) plan.push(['hoy', hoy]);
    for (const [i, [name, inicio]] of plan.entries()) {
      inicio.setSeconds(0, 0);
      const [local, visitante] = [equipos[2 * i], equipos[2 * i + 1]];
      const partido = await asAdmin('POST', '/api/partidos', {
        torneo: actual.nombre,
        nombre_categoria: STAGE,
        codigo_local: local.codigo,
        codigo_visitante: visitante.codigo,
        inicio: inicio.toISOString(),
      });
      assert.equal(partido.apostable, true, `${name} takes predictions`);
      m[name] = { id: partido.id, local: local.nombre, visitante: visitante.nombre };
    }
  });

  step('a new player finds the matches under day and stage headings, each with "cierra HH:MM"', async () => {
    const { page } = player;
    await page.goto(BASE_URL);
    await signInThroughPopup(player, PLAYER);
    await page.goto(new URL('jugadas', BASE_URL).href);
    await page.getByRole('heading', { name: 'Tus jugadas' }).waitFor();
    await settle(page);

    const lista = await asPlayer('/api/partidos-sin-jugar');
    // What each card should sit under, worked out by the browser's own Intl (not the app's code).
    const expected = await page.evaluate((partidos) => {
      const now = new Date();
      const dayOf = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
      const DAY = 24 * 3600_000;
      const time = new Intl.DateTimeFormat('es-AR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      const date = new Intl.DateTimeFormat('es-AR', { day: '2-digit', month: '2-digit', year: 'numeric' });
      const title = (d) => {
        const diff = Math.round((dayOf(d) - dayOf(now)) / DAY);
        if (diff === 0) return 'Hoy';
        if (diff === 1) return 'Mañana';
        if (diff === -1) return 'Ayer';
        const sameYear = d.getFullYear() === now.getFullYear();
        const parts = Object.fromEntries(
          new Intl.DateTimeFormat('es-AR', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
            .formatToParts(d)
            .map((p) => [p.type, p.value]),
        );
        return `${parts.weekday} ${parts.day} de ${parts.month}${sameYear ? '' : ` de ${parts.year}`}`;
      };
      return partidos.map((p) => ({
        id: String(p.id),
        day: title(new Date(p.inicio)),
        stage: p.nombre_categoria,
        kickOff: `${date.format(new Date(p.inicio))} · ${time.format(new Date(p.inicio))}`,
        cierre: time.format(new Date(p.cierre)),
      }));
    }, lista);
    // What the player sees: each card's day heading, stage heading and meta line.
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll('li.match-card')].map((li) => ({
        id: li.dataset.partido,
        day: li.closest('section.matchday-day')?.querySelector('h2')?.textContent ?? null,
        stage: li.closest('section.matchday-stage')?.querySelector('h3')?.textContent ?? null,
        meta: li.querySelector('.card-meta')?.textContent ?? '',
      })),
    );
    assert.equal(shown.length, lista.length, 'every match still to be played is on the page');
    const byId = new Map(shown.map((s) => [s.id, s]));
    for (const want of expected) {
      const got = byId.get(want.id);
      assert.ok(got, `match ${want.id} is on the page`);
      assert.equal(got.day, want.day, `match ${want.id} sits under its day`);
      assert.equal(got.stage, want.stage, `match ${want.id} sits under its group or stage`);
      // Kick-off and cut-off in the browser's zone, like the headings (the server's fecha and
      // hora are in the tournament's zone, and this machine's may be another).
      assert.match(
        got.meta,
        new RegExp(`^${escapeRegExp(want.stage)} · ${want.kickOff} · (cierra|cerró) ${want.cierre}`),
        `match ${want.id} says when it kicks off and when it closes`,
      );
    }
    const days = await page.locator('section.matchday-day > h2').allTextContents();
    assert.deepEqual(days, [...new Set(expected.map((e) => e.day))], 'one heading per day, in order');
    assert.ok(days.includes('Mañana'), '"Mañana" heads tomorrow\'s matches');
    if (m.hoy) assert.equal(days[0], 'Hoy', '"Hoy" heads today\'s matches');
    assert.ok(days.some((d) => /^(lunes|martes|miércoles|jueves|viernes|sábado|domingo) \d+ de [a-z]+/.test(d)), 'later days by weekday and date');

    // Each match links to its own page.
    const link = card(m.recarga).getByRole('link', { name: /^Ver el partido/ });
    assert.equal(await link.getAttribute('href'), `/partidos/${m.recarga.id}`);
    await checkScreen(page, 'jugadas-por-fecha');
  });

  step('a saved prediction fills the inputs after a reload, so a change is one number', async () => {
    const { page } = player;
    await save(card(m.recarga), 2, 1);
    await card(m.recarga).getByText('(2 - 1)').waitFor();
    await page.reload();
    await settle(page);
    const inputs = card(m.recarga).locator('input');
    assert.equal(await inputs.nth(0).inputValue(), '2', 'home goals prefilled');
    assert.equal(await inputs.nth(1).inputValue(), '1', 'away goals prefilled');
    await inputs.nth(1).fill('3');
    await card(m.recarga).getByRole('button', { name: 'Guardar' }).click();
    await card(m.recarga).getByText('Jugada guardada.').waitFor();
    await card(m.recarga).getByText('(2 - 3)').waitFor();
  });

  step('"Te faltan N de M jugadas." and the filter that shows only the matches without a prediction', async () => {
    const { page } = player;
    const lista = await asPlayer('/api/partidos-sin-jugar');
    const mias = new Set((await asPlayer(`/api/jugadores/${encodeURIComponent(PLAYER.email)}/apuestas`)).map((a) => a.partido));
    const abiertos = lista.filter((p) => p.apostable);
    const faltan = abiertos.filter((p) => !mias.has(p.id));
    assert.ok(faltan.length > 2);
    await page.getByText(`Te faltan ${faltan.length} de ${abiertos.length} jugadas.`).waitFor();

    const filter = page.getByRole('checkbox', { name: 'Ver solo los partidos sin jugada' });
    await filter.check();
    const cards = page.locator('li.match-card');
    assert.equal(await cards.count(), faltan.length, 'only the open matches without a prediction');
    assert.equal(await cards.filter({ hasText: 'Sin jugada' }).count(), faltan.length);
    assert.equal(await card(m.recarga).count(), 0, 'a predicted match is hidden');
    await checkScreen(page, 'jugadas-sin-jugada');

    // Saved while filtered, the card stays with its confirmation and the count goes down. (Not
    // one of the matches the next steps need without a prediction.)
    const reserved = new Set([m.sinConexion, m.golesRaros, m.cerrado, m.jugado, m.sesion].map((x) => String(x.id)));
    const ids = await cards.evaluateAll((lis) => lis.map((li) => li.dataset.partido));
    const id = ids.find((x) => !reserved.has(x));
    await save(page.locator(`li.match-card[data-partido="${id}"]`), 1, 1);
    await page.getByText(`Te faltan ${faltan.length - 1} de ${abiertos.length} jugadas.`).waitFor();
    assert.equal(await page.locator(`li.match-card[data-partido="${id}"]`).getByText('(1 - 1)').count(), 1);

    await filter.uncheck();
    assert.equal(await cards.count(), lista.length, 'all the matches again');
  });

  step('offline, a save says so in Spanish and keeps the typed score; Reintentar works once back', async () => {
    const { context } = player;
    const c = card(m.sinConexion);
    await typeScore(c, '4', '0');
    await context.setOffline(true);
    try {
      await c.getByRole('button', { name: 'Guardar' }).click();
      const alert = c.getByRole('alert');
      await alert.waitFor({ timeout: 10_000 });
      assert.match(await alert.textContent(), /Sin conexión: tu jugada no se guardó/);
      assert.equal(await c.locator('input').nth(0).inputValue(), '4', 'the typed score stays');
      assert.equal(await c.locator('input').nth(1).inputValue(), '0');
      assert.ok(await c.getByRole('button', { name: 'Guardar' }).isEnabled(), 'Guardar is not left greyed out');
      await c.getByText('Sin jugada').waitFor();
    } finally {
      await context.setOffline(false);
    }
    await c.getByRole('alert').getByRole('button', { name: 'Reintentar' }).click();
    await c.getByText('Jugada guardada.').waitFor();
    await c.getByText('(4 - 0)').waitFor();
    assert.equal(await c.getByRole('alert').count(), 0, 'the old box is gone');
  });

  step('1.5 goals are refused in player language, with no Reintentar; a later alert takes the box away', async () => {
    const c = card(m.golesRaros);
    await typeScore(c, '1.5', '0');
    await c.getByRole('button', { name: 'Guardar' }).click();
    const alert = c.getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    assert.match(text, new RegExp(GOLES));
    assert.doesNotMatch(text, /campo|tipo incorrecto|goles_local/);
    assert.equal(await alert.getByRole('button', { name: 'Reintentar' }).count(), 0);

    dialogs.length = 0;
    await c.locator('input').nth(0).fill('');
    await c.getByRole('button', { name: 'Guardar' }).click();
    await player.page.waitForTimeout(300);
    assert.deepEqual(dialogs, [ALERT_LOCAL]);
    assert.equal(await c.getByRole('alert').count(), 0, 'the old error box went with the alert');

    await save(c, 1, 1);
    await c.getByText('(1 - 1)').waitFor();
  });

  step('a match closed meanwhile is refused with no Reintentar, and the message stays', async () => {
    const { page } = player;
    // The list on screen predates both changes: the inputs are still there.
    await asAdmin('PUT', `/api/partidos/${m.cerrado.id}/horario`, { inicio: new Date(Date.now() + 30 * 60_000).toISOString() });
    const c = card(m.cerrado);
    const alert = await refusedSave(c, 2, 2);
    assert.match(await alert.textContent(), CUT_OFF);
    assert.equal(await alert.getByRole('button', { name: 'Reintentar' }).count(), 0);
    // The list reloads: the match moves under today's heading, without inputs, still explained.
    await c.locator('input').first().waitFor({ state: 'detached', timeout: 15_000 });
    await c.getByText('Jugadas cerradas').waitFor();
    assert.match(await c.getByRole('alert').textContent(), CUT_OFF);
    assert.equal(
      await c.evaluate((li) => li.closest('section.matchday-day')?.querySelector('h2')?.textContent),
      new Date(Date.now() + 30 * 60_000).getDate() === new Date().getDate() ? 'Hoy' : 'Mañana',
    );
    await checkScreen(page, 'jugadas-partido-cerrado');
  });

  step('a match played meanwhile is refused with its own message, not the cut-off one', async () => {
    await asAdmin('PUT', `/api/partidos/${m.jugado.id}/resultado`, { goles_local: 1, goles_visitante: 0 });
    const c = card(m.jugado);
    const alert = await refusedSave(c, 0, 0);
    const text = await alert.textContent();
    assert.match(text, /ya se jugó/);
    assert.doesNotMatch(text, CUT_OFF);
    assert.equal(await alert.getByRole('button', { name: 'Reintentar' }).count(), 0);
  });

  step('after the session ended elsewhere, the typed score survives the sign-in, which comes back here', async () => {
    const { page, context } = player;
    const c = card(m.sesion);
    await typeScore(c, '6', '2');
    // 'Salir' on another device: the server ends the session; this browser still has its cookie.
    const cookie = (await context.cookies()).find((k) => k.name === 'prode_sesion');
    assert.ok(cookie, 'the player has a session cookie');
    const out = await fetch(new URL('api/sesion', BASE_URL), {
      method: 'DELETE',
      headers: { Origin: ORIGIN, Cookie: `prode_sesion=${cookie.value}` },
    });
    assert.ok(out.ok, `DELETE /api/sesion: ${out.status}`);

    await c.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('button', { name: 'Ingresar con Google' }).waitFor();
    await page.getByText(/Tu sesión se cerró y tu jugada no se guardó/).waitFor();
    await checkScreen(page, 'ingreso-sesion-cerrada');

    await signInThroughPopup(player, { ...PLAYER, landsOn: 'Tus jugadas' });
    assert.equal(new URL(page.url()).pathname, '/jugadas');
    await settle(page);
    assert.equal(await c.locator('input').nth(0).inputValue(), '6', 'the typed home goals are back');
    assert.equal(await c.locator('input').nth(1).inputValue(), '2', 'the typed away goals are back');
    await c.getByText(/Recuperamos lo que habías escrito/).waitFor();
    await c.getByText('Sin jugada').waitFor();
    await save(c, 6, 2);
    await c.getByText('(6 - 2)').waitFor();
  });

  step('no CSP violation and no uncaught error happened in any page', async () => {
    assert.deepEqual([...player.problems, ...admin.problems], []);
  });
});

async function save(card, local, visitante) {
  await typeScore(card, local, visitante);
  await card.getByRole('button', { name: 'Guardar' }).click();
  await card.getByText('Jugada guardada.').waitFor();
}

/** Types a score and saves it, expecting a refusal: the card's alert, once it shows. */
async function refusedSave(card, local, visitante) {
  await typeScore(card, local, visitante);
  await card.getByRole('button', { name: 'Guardar' }).click();
  const alert = card.getByRole('alert');
  await alert.waitFor();
  return alert;
}

/** Types a score into a card's two inputs (as typed: '1.5' stays '1.5'). */
async function typeScore(card, local, visitante) {
  await card.locator('input').nth(0).fill(String(local));
  await card.locator('input').nth(1).fill(String(visitante));
}
