import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { fakePartidoSinJugar as partido } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import type { Apuesta } from '../api/getApuestas';
import { countText } from './MatchdayList';
import { PredictionsPage } from './PredictionsPage';

const jugador = { id: 5, nombre: 'Ana', email: 'ana@prode.test', admin: false };
// Friday 20 November 2026, 10:00 in the local zone of whoever runs the tests.
const NOW = new Date(2026, 10, 20, 10, 0);

const PARTIDOS = [
  partido(1, new Date(2026, 10, 20, 10, 30), 'Grupo A', false), // closed: kicks off in 30 minutes
  partido(2, new Date(2026, 10, 20, 13, 0), 'Grupo A'),
  partido(3, new Date(2026, 10, 20, 16, 0), 'Grupo B'),
  partido(4, new Date(2026, 10, 21, 13, 0), 'Grupo A'),
  partido(5, new Date(2026, 10, 22, 16, 0), 'Octavos de final'),
];

function serve(initial: Apuesta[]) {
  let saved = initial;
  return fakeFetch((r) => {
    if (r.method === 'GET' && r.path === '/api/partidos-sin-jugar') return { status: 200, body: PARTIDOS };
    if (r.method === 'GET' && r.path === `/api/jugadores/${jugador.email}/apuestas`) return { status: 200, body: saved };
    if (r.method === 'POST') {
      const body = r.body as Omit<Apuesta, 'id'>;
      const created = { ...body, id: 100 + body.partido };
      saved = [...saved, created];
      return { status: 201, body: created };
    }
    if (r.method === 'GET' && r.path === '/api/torneos') return { status: 200, body: [] };
    return undefined;
  });
}

const cards = () => screen.queryAllByRole('listitem').filter((li) => li.classList.contains('match-card'));
const shownIds = () => cards().map((li) => Number(li.dataset.partido));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('countText', () => {
  it.each([
    [3, 48, 'Te faltan 3 de 48 jugadas.'],
    [1, 48, 'Te falta 1 de 48 jugadas.'],
    [1, 1, 'Te falta 1 de 1 jugada.'],
    [0, 48, 'No te falta ninguna jugada.'],
  ])('%d missing of %d: "%s"', (faltan, abiertos, text) => {
    expect(countText(faltan, abiertos)).toBe(text);
  });
});

describe('the matchday on /jugadas', () => {
  it('groups the matches under day headings, then group or stage headings', async () => {
    serve([]);
    renderWithProviders(<PredictionsPage jugador={jugador} />, { route: '/jugadas' });
    await screen.findAllByText('Sin jugada');
    const days = screen.getAllByRole('heading', { level: 2 });
    expect(days.map((h) => h.textContent)).toEqual(['Hoy', 'Mañana', 'domingo 22 de noviembre']);
    const today = days[0]!.closest('section') as HTMLElement;
    expect(within(today).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Grupo A', 'Grupo B']);
    const grupoA = within(today).getByRole('heading', { name: 'Grupo A' }).closest('section') as HTMLElement;
    expect(within(grupoA).getAllByRole('listitem').map((li) => li.dataset.partido)).toEqual(['1', '2']);
    const octavos = screen.getByRole('heading', { name: 'Octavos de final' }).closest('section') as HTMLElement;
    expect(within(octavos).getByText('cierra 15:00')).toBeInTheDocument();
  });

  it("counts the open matches without a prediction, and the filter shows only those", async () => {
    serve([{ id: 1, partido: 2, goles_local: 1, goles_visitante: 0, jugador: jugador.email }]);
    renderWithProviders(<PredictionsPage jugador={jugador} />, { route: '/jugadas' });
    // Open: 2, 3, 4, 5 (1 is closed); 2 has a prediction.
    expect(await screen.findByText('Te faltan 3 de 4 jugadas.')).toBeInTheDocument();
    expect(shownIds()).toEqual([1, 2, 3, 4, 5]);

    const filter = screen.getByRole('checkbox', { name: 'Ver solo los partidos sin jugada' });
    await userEvent.click(filter);
    expect(shownIds()).toEqual([3, 4, 5]);
    const days = screen.getAllByRole('heading', { level: 2 });
    expect(days.map((h) => h.textContent)).toEqual(['Hoy', 'Mañana', 'domingo 22 de noviembre']);
    // Today's Grupo A had only a closed match and a predicted one: its heading goes too.
    const today = days[0]!.closest('section') as HTMLElement;
    expect(within(today).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Grupo B']);

    // Saved while filtered, a card stays with its confirmation, and the count goes down.
    const card = cards().find((li) => li.dataset.partido === '4') as HTMLElement;
    await userEvent.type(within(card).getByLabelText('Goles de Local 4'), '2');
    await userEvent.type(within(card).getByLabelText('Goles de Visitante 4'), '2');
    await userEvent.click(within(card).getByRole('button', { name: 'Guardar' }));
    expect(await within(card).findByText('Jugada guardada.')).toBeInTheDocument();
    expect(await screen.findByText('Te faltan 2 de 4 jugadas.')).toBeInTheDocument();
    expect(shownIds()).toEqual([3, 4, 5]);

    // Turned off and on again, the filter leaves it out.
    await userEvent.click(filter);
    expect(shownIds()).toEqual([1, 2, 3, 4, 5]);
    await userEvent.click(filter);
    expect(shownIds()).toEqual([3, 5]);
  });

  it('says when nothing is missing', async () => {
    serve([2, 3, 4, 5].map((p) => ({ id: p, partido: p, goles_local: 0, goles_visitante: 0, jugador: jugador.email })));
    renderWithProviders(<PredictionsPage jugador={jugador} />, { route: '/jugadas' });
    expect(await screen.findByText('No te falta ninguna jugada.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Ver solo los partidos sin jugada' }));
    expect(screen.getByText('¡Listo! No te falta ninguna jugada.')).toBeInTheDocument();
    expect(cards()).toHaveLength(0);
  });
});
