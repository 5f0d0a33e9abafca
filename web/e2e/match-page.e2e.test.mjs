// Issue 14's match page end to end, against a running stack (PRODE_URL): two players predict a
// match; before the lock the page shows one's own prediction and says when everyone's show, and
// nobody else's is anywhere on it (nor in the API); signed out, the page offers to sign in there,
// and stays. On a phone in Tokyo, the card on /jugadas and the match page give the kick-off and
// the cut-off in the phone's clock. The organiser moves the match inside its
// cut-off: the page shows both predictions, in a table, and how they split. The organiser enters
// the result: a player goes from the results screen to the match page and sees who scored what.
// Each state of the page is screenshot at 1280x800 and 390x844 and checked with axe.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { api, call } from './lib/api.mjs';
import { BASE_URL, peopleForSuite } from './lib/browser.mjs';
import { checkScreen, settle } from './lib/checks.mjs';
import { signInThroughPopup } from './lib/signIn.mjs';
import { stepsInOrder } from './lib/steps.mjs';

const ADMIN = { email: 'admin@prode.test', nombre: 'Organizador Demo' };
const stamp = Date.now().toString(36);
const ANA = { email: `partido-ana-${stamp}@prode.test`, nombre: `Ana ${stamp}` };
const BETO = { email: `partido-beto-${stamp}@prode.test`, nombre: `Beto ${stamp}` };
const HOUR = 3600_000;

describe('The match page end to end', { timeout: 10 * 60_000 }, () => {
  const { ana, beto, admin, addPerson } = peopleForSuite({ ana: 'partido-ana', beto: 'partido-beto', admin: 'partido-organizador' });
  let phone; // Ana on a second device, where she is signed out
  let match; // the match both predict: {id, nombre_local, nombre_visitante}

  const step = stepsInOrder();

  const matchPage = () => new URL(`partidos/${match.id}`, BASE_URL).href;
  const main = (page) => page.getByRole('main');

  step('two players sign in and predict the same match', async () => {
    for (const [person, who] of [[ana, ANA], [beto, BETO]]) {
      await person.page.goto(BASE_URL);
      await signInThroughPopup(person, who);
    }
    // A match that takes predictions for a day yet, not predicted by earlier runs (they end with a result).
    const open = (await api(ana.page, 'GET', '/api/partidos-sin-jugar')).filter(
      (m) => m.apostable && Date.parse(m.cierre) > Date.now() + 24 * HOUR,
    );
    assert.ok(open.length > 0, 'a match takes predictions');
    match = open[Math.floor(Math.random() * open.length)];
    await api(ana.page, 'POST', `/api/jugadores/${ANA.email}/apuestas`, { partido: match.id, goles_local: 2, goles_visitante: 1 });
    await api(beto.page, 'POST', `/api/jugadores/${BETO.email}/apuestas`, { partido: match.id, goles_local: 1, goles_visitante: 1 });
  });

  step("before the lock the page shows one's own prediction, and nobody else's", async () => {
    const { page } = ana;
    await page.goto(matchPage());
    await page.getByRole('heading', { level: 1, name: `${match.nombre_local} vs. ${match.nombre_visitante}` }).waitFor();
    await main(page).getByText('Las jugadas de todos se ven cuando cierran las apuestas, 1 hora antes del inicio.').waitFor();
    await settle(page);
    assert.match(await main(page).getByText(/^Tu jugada:/).textContent(), /Tu jugada: 2 - 1/);
    assert.match(await main(page).getByText(/^Las jugadas cierran el/).textContent(), /1 hora antes del inicio/);
    assert.equal(await page.getByRole('table').count(), 0, 'no list of predictions');
    assert.doesNotMatch(await main(page).textContent(), new RegExp(BETO.nombre), "Beto's name is nowhere");
    // Nor through the API: the list is refused, the summary has no distribution.
    const list = await call(page, 'GET', `/api/apuestas?partido=${match.id}`);
    assert.equal(list.status, 403);
    const resumen = await api(page, 'GET', `/api/apuestas/resumen?partido=${match.id}`);
    assert.equal(resumen.cerrado, false);
    assert.equal(resumen.distribucion, null);
    await checkScreen(page, 'partido-antes-del-cierre');
  });

  step('signed out, a match link offers to sign in there, and after signing in the player stays on the match', async () => {
    phone = await addPerson('partido-ana-celular');
    const { page } = phone;
    await page.goto(matchPage());
    const heading = `${match.nombre_local} vs. ${match.nombre_visitante}`;
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await main(page).getByText('Ingresá para ver tu jugada y, cuando cierran las apuestas, las de todos.').waitFor();
    assert.equal(await main(page).getByText(/^Tu jugada:/).count(), 0, 'no prediction shown signed out');
    await settle(page);
    await checkScreen(page, 'partido-sin-sesion');
    await signInThroughPopup(phone, { ...ANA, landsOn: heading });
    assert.equal(page.url(), matchPage(), 'still on the match');
    await main(page).getByText(/^Tu jugada:/).waitFor();
    assert.match(await main(page).getByText(/^Tu jugada:/).textContent(), /Tu jugada: 2 - 1/);
    assert.equal(await main(page).getByRole('button', { name: 'Ingresar con Google' }).count(), 0);
    await phone.context.close();
  });

  step("a player abroad reads the kick-off and the cut-off in her device's clock, the same on the card and on the page", async () => {
    // Tokyo is 9 hours ahead of UTC all year and 12 of Argentina, the stack's display zone: a
    // screen that wrote the server's hora instead of the device's would be off by half a day.
    const abroad = await addPerson('partido-ana-en-tokio', { timezoneId: 'Asia/Tokyo' });
    const { page } = abroad;
    const inTokyo = (iso) => {
      const t = new Date(Date.parse(iso) + 9 * HOUR);
      const pad = (n) => String(n).padStart(2, '0');
      return { fecha: `${pad(t.getUTCDate())}/${pad(t.getUTCMonth() + 1)}/${t.getUTCFullYear()}`, hora: `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}` };
    };
    const inicio = inTokyo(match.inicio);
    const cierre = inTokyo(match.cierre);
    await page.goto(BASE_URL);
    await signInThroughPopup(abroad, ANA);

    await page.goto(new URL('jugadas', BASE_URL).href);
    const card = page.locator(`li[data-partido="${match.id}"]`);
    await card.waitFor();
    const meta = (await card.locator('.card-meta').textContent()).replace(/\s+/g, ' ');
    assert.ok(meta.includes(`${inicio.fecha} · ${inicio.hora}`), `kick-off ${inicio.fecha} ${inicio.hora} on the card: "${meta}"`);
    assert.ok(meta.includes(`cierra ${cierre.hora}`), `cut-off ${cierre.hora} on the card: "${meta}"`);

    await card.getByRole('link', { name: /^Ver el partido/ }).click();
    await page.waitForURL(matchPage());
    await page.getByRole('heading', { level: 1, name: `${match.nombre_local} vs. ${match.nombre_visitante}` }).waitFor();
    const heading = (await main(page).locator('.card-meta').first().textContent()).replace(/\s+/g, ' ');
    assert.ok(heading.includes(`${inicio.fecha} · ${inicio.hora}`), `kick-off ${inicio.fecha} ${inicio.hora} on the page: "${heading}"`);
    await main(page).getByText(`Las jugadas cierran el ${cierre.fecha} a las ${cierre.hora}, 1 hora antes del inicio.`).waitFor();
    await abroad.context.close();
  });

  step("after the lock the page shows both predictions and how everyone predicted", async () => {
    await admin.page.goto(BASE_URL);
    await signInThroughPopup(admin, { ...ADMIN, demo: true });
    const inicio = new Date(Date.now() + 30 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await api(admin.page, 'PUT', `/api/partidos/${match.id}/horario`, { inicio });

    const { page } = beto;
    await page.goto(matchPage());
    await main(page).getByRole('heading', { name: 'Cómo jugaron todos' }).waitFor();
    await settle(page);
    assert.match(await main(page).getByText(/^Las jugadas cerraron el/).textContent(), /cerraron/);
    assert.equal(await main(page).getByRole('link', { name: /tu jugada/ }).count(), 0, 'no way to change it any more');
    const table = page.getByRole('table', { name: /^Jugadas de todos, por nombre/ });
    await table.waitFor();
    const rows = (await table.getByRole('row').allTextContents()).map((r) => r.trim());
    assert.ok(rows.includes(`${ANA.nombre}2 - 1`), `Ana's prediction in ${JSON.stringify(rows)}`);
    assert.ok(rows.includes(`${BETO.nombre}Vos1 - 1`), `Beto's own row in ${JSON.stringify(rows)}`);
    // The distribution as text. The match is new to this run, but another test file on the same
    // stack may have predicted it too: the page is checked against the server's own numbers.
    const { distribucion: d } = await api(page, 'GET', `/api/apuestas/resumen?partido=${match.id}`);
    assert.ok(d.total >= 2 && d.local >= 1 && d.empate >= 1, `both predictions counted: ${JSON.stringify(d)}`);
    const pct = (n) => Math.round((n * 100) / d.total);
    const jugadas = (n) => `${n} ${n === 1 ? 'jugada' : 'jugadas'}`;
    const text = await main(page).getByRole('region', { name: 'Cómo jugaron todos' }).textContent();
    for (const want of [
      `${jugadas(d.total)} en total`,
      `Gana ${match.nombre_local}: ${jugadas(d.local)}, ${pct(d.local)} %`,
      `Empate: ${jugadas(d.empate)}, ${pct(d.empate)} %`,
      `Gana ${match.nombre_visitante}: ${jugadas(d.visitante)}, ${pct(d.visitante)} %`,
      'Los resultados más jugados',
    ]) {
      assert.ok(text.includes(want), `"${want}" in "${text}"`);
    }
    await checkScreen(page, 'partido-cerrado');
  });

  step('once played, a player goes from the results to the match page and sees who scored what', async () => {
    await api(admin.page, 'PUT', `/api/partidos/${match.id}/resultado`, { goles_local: 2, goles_visitante: 1 });

    const { page } = ana;
    await page.goto(new URL('resultados', BASE_URL).href);
    await page.getByRole('heading', { name: 'Resultados', level: 1 }).waitFor();
    await settle(page);
    const link = page.getByRole('link', { name: `Ver el partido ${match.nombre_local} - ${match.nombre_visitante}` });
    await link.waitFor();
    await link.click();
    await page.waitForURL(matchPage());
    await page.getByRole('heading', { level: 1, name: `${match.nombre_local} 2 - 1 ${match.nombre_visitante}` }).waitFor();
    await main(page).getByRole('heading', { name: 'Quién sumó qué' }).waitFor();
    // Scoring follows the result within seconds; the page waits for it by itself.
    await main(page).getByText('Sumaste 10 puntos en este partido.').waitFor({ timeout: 30_000 });
    const table = page.getByRole('table', { name: /^Jugadas y puntos de todos, por nombre/ });
    const rows = (await table.getByRole('row').allTextContents()).map((r) => r.trim());
    assert.equal(rows[0], 'JugadorJugadaPuntos');
    assert.ok(rows.includes(`${ANA.nombre}Vos2 - 110`), `Ana's own row, 10 points, in ${JSON.stringify(rows)}`);
    assert.ok(rows.includes(`${BETO.nombre}1 - 12`), `Beto's row, 2 points, in ${JSON.stringify(rows)}`);
    assert.equal(await main(page).getByText('Partido terminado.').count(), 1);
    await settle(page);
    await checkScreen(page, 'partido-jugado');

    // Only those who scored 2 points.
    const filter = page.getByRole('group', { name: 'Mostrar en la lista' });
    await filter.getByRole('button', { name: /^2 puntos \(\d+\)$/ }).click();
    const only = page.getByRole('table', { name: /^Quienes sumaron 2 puntos/ });
    await only.waitFor();
    const filtered = (await only.getByRole('row').allTextContents()).map((r) => r.trim());
    assert.ok(filtered.includes(`${BETO.nombre}1 - 12`), `Beto among those with 2 points: ${JSON.stringify(filtered)}`);
    assert.ok(!filtered.some((r) => r.startsWith(ANA.nombre)), 'Ana, with 10 points, is not');
    assert.ok(filtered.slice(1).every((r) => r.endsWith('2')), `only rows with 2 points: ${JSON.stringify(filtered)}`);
  });

  step('no CSP violation and no uncaught error happened in any page', async () => {
    assert.deepEqual([...ana.problems, ...beto.problems, ...admin.problems, ...(phone?.problems ?? [])], []);
  });
});
