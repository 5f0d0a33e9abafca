import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { fakeResultadoPartido, resultadoConPenales } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { ResultsPage } from './ResultsPage';

const torneos = [
  { id: 2, nombre: 'Mundial 2026', actual: true, partidos: 104, finalizados: 0 },
  { id: 1, nombre: 'Mundial 2022', actual: false, partidos: 64, finalizados: 64 },
];
const final = fakeResultadoPartido({ resultado: resultadoConPenales });

function serve() {
  return fakeFetch((r) => {
    if (r.path === '/api/sesion') return { status: 401, body: { error: 'no_autenticado', mensaje: 'x' } };
    if (r.path === '/api/torneos') return { status: 200, body: torneos };
    if (r.path === '/api/resultados' || r.path === '/api/resultados?torneo=2') return { status: 200, body: [] };
    if (r.path === '/api/resultados?torneo=1') return { status: 200, body: [final] };
    return undefined;
  });
}

describe('ResultsPage', () => {
  it("shows the current tournament's results by default", async () => {
    serve();
    renderWithProviders(<ResultsPage />, { route: '/resultados' });
    expect(await screen.findByText('Todavía no terminó ningún partido.')).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Torneo' })).toHaveValue('2');
    expect(screen.queryByText(/Historial/)).not.toBeInTheDocument();
  });

  it('opens a past tournament from ?torneo= and switches with the Torneo selector', async () => {
    const { requests } = serve();
    renderWithProviders(<ResultsPage />, { route: '/resultados?torneo=1' });
    expect(await screen.findByText('Argentina')).toBeInTheDocument();
    expect(screen.getByText('Alargue: 3 - 3 · Penales: 4 - 2')).toBeInTheDocument();
    const torneo = await screen.findByRole('combobox', { name: 'Torneo' });
    expect(torneo).toHaveValue('1');
    expect(screen.getByText(/Historial: estás viendo Mundial 2022/)).toBeInTheDocument();

    await userEvent.selectOptions(torneo, 'Mundial 2026 (actual)');
    expect(await screen.findByText('Todavía no terminó ningún partido.')).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/resultados?torneo=1', '/api/resultados?torneo=2']));
    await waitFor(() => expect(screen.queryByText(/Historial/)).not.toBeInTheDocument());
    expect(within(torneo).getAllByRole('option')).toHaveLength(2);
  });
});
