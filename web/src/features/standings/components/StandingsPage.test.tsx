import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeEventSources } from '../../../test/fakeEventSource';
import { fakeFetch, type Recorded } from '../../../test/fakeFetch';
import { fakePosicion as fila } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import type { Posicion } from '../api/getPosiciones';
import { StandingsPage } from './StandingsPage';

const torneos = [
  { id: 2, nombre: 'Mundial 2026', actual: true, partidos: 104, finalizados: 3 },
  { id: 1, nombre: 'Mundial 2022', actual: false, partidos: 64, finalizados: 64 },
];

const tabla = (torneo: number, posiciones: Posicion[]) => ({
  torneo,
  version: 42,
  pagina: 1,
  por_pagina: 100,
  total: posiciones.length,
  posiciones,
});

const general = tabla(2, [
  fila(1, 7, 'Ana', 27, 3),
  fila(2, 8, 'Beto', 24, 1),
  fila(3, 9, 'Carla', 20, 3),
  fila(4, 10, 'Dani', 0, null),
]);
const delOnce = tabla(2, [fila(1, 9, 'Carla', 10, null), fila(2, 7, 'Ana', 0, null)]);
const fechas = {
  torneo: 2,
  version: 42,
  fechas: [
    {
      fecha: '2026-06-12',
      partidos: 2,
      empatados: 2,
      ganadores: [
        { id: 7, nombre: 'Ana', puntaje: 17 },
        { id: 8, nombre: 'Beto', puntaje: 17 },
      ],
    },
    { fecha: '2026-06-11', partidos: 1, empatados: 1, ganadores: [{ id: 9, nombre: 'Carla', puntaje: 10 }] },
  ],
};
const final2022 = tabla(1, [fila(1, 8, 'Beto', 90, 1), fila(2, 7, 'Ana', 85, 2)]);
const ana = { id: 7, nombre: 'Ana', email: 'ana@prode.test', admin: false };

/** The server: signed out unless `jugador` is given; `yo` is Ana's place in the 2022 table. */
function serve({ jugador = null as typeof ana | null, yo = { puntaje: 85 } } = {}) {
  return fakeFetch((r: Recorded) => {
    const answers: Record<string, unknown> = {
      '/api/torneos': torneos,
      '/api/posiciones?pagina=1&por_pagina=100': general,
      '/api/posiciones?fecha=2026-06-11&pagina=1&por_pagina=100': delOnce,
      '/api/posiciones/fechas': fechas,
      '/api/posiciones?torneo=1&pagina=1&por_pagina=100': final2022,
      '/api/posiciones/fechas?torneo=1': { torneo: 1, version: 7, fechas: [] },
      '/api/posiciones/yo?torneo=1': { posicion: 2, pagina: 1, exactos: 0, aciertos: 0, posicion_anterior: 1, ...yo },
    };
    if (r.path === '/api/sesion') {
      return jugador ? { status: 200, body: jugador } : { status: 401, body: { error: 'no_autenticado', mensaje: 'x' } };
    }
    return r.path in answers ? { status: 200, body: answers[r.path] } : undefined;
  });
}

const bodyRows = () => screen.getAllByRole('row').slice(1);

describe('StandingsPage', () => {
  it('shows each player\'s movement since the previous matchday, named for screen readers', async () => {
    serve();
    const { container } = renderWithProviders(<StandingsPage />, { route: '/posiciones' });
    expect(await screen.findByRole('row', { name: /Ana/ })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader');
    expect(headers.slice(0, 4).map((h) => h.textContent)).toEqual(['#', 'Nombre de usuario', 'Bonus', 'Puntaje']);
    expect(headers[4]).toHaveAccessibleName('Movimiento desde la fecha anterior');

    const movement = (row: HTMLElement) => within(row).getAllByRole('cell')[4]!;
    const [anaRow, betoRow, carlaRow, daniRow] = bodyRows();
    expect(within(movement(anaRow!)).getByRole('img', { name: 'Subió 2 puestos' })).toHaveTextContent('▲ 2');
    expect(within(movement(betoRow!)).getByRole('img', { name: 'Bajó 1 puesto' })).toHaveTextContent('▼ 1');
    expect(within(movement(carlaRow!)).getByRole('img', { name: 'Sin cambios' })).toHaveTextContent('=');
    expect(movement(daniRow!)).toBeEmptyDOMElement();

    await screen.findByRole('combobox', { name: 'Torneo' });
    expect(await axeViolations(container)).toEqual([]);
  });

  it('names the latest matchday\'s winners above the table, sharing it when tied', async () => {
    serve();
    renderWithProviders(<StandingsPage />, { route: '/posiciones' });
    const winners = await screen.findByRole('region', { name: 'Ganadores de la fecha' });
    expect(winners).toHaveTextContent('Fecha del 12/06/2026 · 2 partidos');
    expect(within(winners).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Ana · 17 puntos',
      'Beto · 17 puntos',
    ]);
  });

  it('shows one matchday\'s table from the Fecha selector, and the whole table again with General', async () => {
    const { requests } = serve();
    renderWithProviders(<StandingsPage />, { route: '/posiciones' });
    const fecha = await screen.findByRole('combobox', { name: 'Fecha' });
    expect(within(fecha).getAllByRole('option').map((o) => o.textContent)).toEqual(['General', '12/06/2026', '11/06/2026']);
    expect(fecha).toHaveValue('');

    await userEvent.selectOptions(fecha, '11/06/2026');
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('Carla'));
    expect(requests.map((r) => r.path)).toContain('/api/posiciones?fecha=2026-06-11&pagina=1&por_pagina=100');
    expect(screen.getByText(/solo cuentan los puntos de los partidos de ese día/)).toBeInTheDocument();
    // A matchday's table has no movement column; its winner is that day's.
    expect(screen.getAllByRole('columnheader')).toHaveLength(3);
    const winner = screen.getByRole('region', { name: 'Ganador de la fecha' });
    expect(winner).toHaveTextContent('Carla · 10 puntos');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Fecha' }), 'General');
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('Ana'));
    expect(screen.getByRole('region', { name: 'Ganadores de la fecha' })).toBeInTheDocument();
  });

  it("shows a past tournament's final table from the Torneo selector (the historial)", async () => {
    const { requests } = serve();
    renderWithProviders(<StandingsPage />, { route: '/posiciones' });
    const torneo = await screen.findByRole('combobox', { name: 'Torneo' });
    const options = within(torneo).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Mundial 2026 (actual)', 'Mundial 2022']);
    expect(torneo).toHaveValue('2');

    await userEvent.selectOptions(torneo, 'Mundial 2022');
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('Beto'));
    expect(requests.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/posiciones?torneo=1&pagina=1&por_pagina=100', '/api/posiciones/fechas?torneo=1']),
    );
    expect(screen.getByText(/Historial: estás viendo Mundial 2022/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver el torneo actual' })).toHaveAttribute('href', '/posiciones');
    // No matchday of that tournament has results here: no selector, no winners.
    expect(screen.queryByRole('combobox', { name: 'Fecha' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Ganador/ })).not.toBeInTheDocument();
  });

  it("finds the player in the tournament on screen, and their place follows new results live", async () => {
    const yo = { puntaje: 85 };
    const { requests } = serve({ jugador: ana, yo });
    const streams = fakeEventSources();
    renderWithProviders(<StandingsPage />, { route: '/posiciones?torneo=1', live: streams.factory });
    act(() => streams.latest.open());
    await userEvent.click(await screen.findByRole('button', { name: 'Ver mi posición' }));
    expect(await screen.findByText('Estás en el puesto 2 con 85 puntos. Bajaste 1 puesto desde la fecha anterior.')).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toContain('/api/posiciones/yo?torneo=1');

    yo.puntaje = 95;
    act(() => streams.latest.emit('posiciones', { torneo: 1, version: 50 }));
    expect(await screen.findByText(/Estás en el puesto 2 con 95 puntos/)).toBeInTheDocument();
  });

  it("with ?yo (the home's link) finds the player at once, focuses their row, and keeps their place live", async () => {
    const yo = { puntaje: 85 };
    serve({ jugador: ana, yo });
    const streams = fakeEventSources();
    renderWithProviders(<StandingsPage />, { route: '/posiciones?torneo=1&yo', live: streams.factory });
    act(() => streams.latest.open());
    expect(await screen.findByText(/Estás en el puesto 2 con 85 puntos/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('row', { name: /Ana/ })).toHaveFocus());

    yo.puntaje = 95;
    act(() => streams.latest.emit('posiciones', { torneo: 1, version: 50 }));
    expect(await screen.findByText(/Estás en el puesto 2 con 95 puntos/)).toBeInTheDocument();
  });
});
