import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schemas } from '../../../shared/api/types';
import { fakeFetch } from '../../../test/fakeFetch';
import { fakePosicion } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { Board } from './Board';
import { StandingsTable } from './StandingsTable';

type Motivo = Schemas['FilaTablero']['motivos'][number];

const fila = (f: number, posicion: number, id: number, nombre: string, puntaje: number, ...motivos: Motivo[]) => ({
  ...fakePosicion(posicion, id, nombre, puntaje),
  fila: f,
  motivos,
});

// Ana is 8th of 40; Dani (20th) is pinned.
const tablero = {
  torneo: 1,
  version: 7,
  total: 40,
  filas: [
    fila(1, 1, 10, 'Uno', 30, 'top'),
    fila(2, 1, 11, 'Dos', 30, 'top'),
    fila(3, 1, 12, 'Tres', 30, 'top'),
    fila(7, 7, 16, 'Siete', 14, 'vecino'),
    fila(8, 8, 3, 'Ana', 12, 'yo'),
    fila(9, 9, 18, 'Nueve', 10, 'vecino'),
    fila(20, 19, 29, 'Dani', 5, 'fijado'),
    fila(40, 40, 49, 'Cuarenta', 0, 'ultimo'),
  ],
};

function serve(fijados = [{ id: 29, nombre: 'Dani' }]) {
  return fakeFetch((r) => {
    if (r.path === '/api/posiciones/tablero') return { status: 200, body: tablero };
    if (r.path === '/api/posiciones/fijados') return { status: 200, body: fijados };
    if (r.method === 'PUT' || r.method === 'DELETE') return { status: 204 };
    const desde = /desde=(\d+)/.exec(r.path);
    if (r.path.startsWith('/api/posiciones/filas') && desde) {
      const from = Number(desde[1]);
      const filas = Array.from({ length: 10 }, (_, i) => ({
        ...fakePosicion(from + i, 100 + from + i, `Fila ${from + i}`, 1),
        fila: from + i,
      }));
      return { status: 200, body: { torneo: 1, version: 7, total: 40, filas } };
    }
    return undefined;
  });
}

const bodyRows = () => screen.getAllByRole('row').slice(1);

describe('Board', () => {
  it('shows the top, the player, the neighbours, the pinned and the last in order, with gaps where rows are left out', async () => {
    serve();
    renderWithProviders(<Board tabla={{}} jugadorId={3} />);
    expect(screen.getByRole('heading', { name: 'Cerca tuyo' })).toBeInTheDocument();
    const own = await screen.findByRole('row', { current: true });
    expect(own).toHaveTextContent('Ana');
    expect(within(own).getByText('Vos')).toBeInTheDocument();
    const texts = bodyRows().map((r) => within(r).queryAllByRole('cell')[0]?.textContent ?? '');
    // Ranks in the table's order, a gap ("…") wherever rows are left out.
    expect(texts).toEqual(['1', '1', '1', expect.stringContaining('…'), '7', '8', '9', expect.stringContaining('…'), '19', expect.stringContaining('…'), '40']);
    const dani = screen.getByRole('row', { name: /Dani/ });
    expect(dani).toHaveClass('is-pinned');
    expect(within(dani).getByText('Fijado')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Cuarenta/ })).getByText('Último')).toBeInTheDocument();
    expect(screen.getByText('Faltan 3 filas entre el puesto de la fila 3 y el de la fila 7.')).toBeInTheDocument();
  });

  it('marks the rows the board says are pinned while the pins cannot be read', async () => {
    fakeFetch((r) => {
      if (r.path === '/api/posiciones/tablero') return { status: 200, body: tablero };
      if (r.path === '/api/posiciones/fijados') return { status: 503, body: { error: 'servicio_no_disponible', mensaje: 'No disponible.' } };
      return undefined;
    });
    renderWithProviders(<Board tabla={{}} jugadorId={3} />);
    const dani = await screen.findByRole('row', { name: /Dani/ });
    expect(dani).toHaveClass('is-pinned');
    expect(within(dani).getByRole('button', { name: 'Quitar fijado a Dani' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(screen.getByRole('row', { name: /Siete/ })).getByRole('button', { name: 'Fijar a Siete' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('opens 10 more rows below or above a gap, at the board\'s version, and closes the gap they fill', async () => {
    const { requests } = serve();
    renderWithProviders(<Board tabla={{}} jugadorId={3} />);
    await screen.findByRole('row', { current: true });
    await userEvent.click(screen.getByRole('button', { name: 'Ver 10 más debajo de la fila 9' }));
    expect(await screen.findByRole('row', { name: /Fila 10/ })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Fila 19/ })).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/posiciones/filas?desde=10&cantidad=10&version=7')).toBe(true);
    // Rows 10 to 19 then Dani's 20th: no gap left between the player and Dani.
    expect(screen.queryByText(/entre el puesto de la fila 9/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Ver 10 más arriba de la fila 40' }));
    expect(await screen.findByRole('row', { name: /Fila 39/ })).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/posiciones/filas?desde=30&cantidad=10&version=7')).toBe(true);
  });

  it('pins and unpins from a row with a real toggle button, named for the player', async () => {
    const { requests } = serve();
    renderWithProviders(<Board tabla={{}} jugadorId={3} />);
    const unpin = await screen.findByRole('button', { name: 'Quitar fijado a Dani' });
    expect(unpin).toHaveAttribute('aria-pressed', 'true');
    const pin = screen.getByRole('button', { name: 'Fijar a Siete' });
    expect(pin).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('button', { name: /a Ana$/ })).not.toBeInTheDocument(); // not oneself
    await userEvent.click(pin);
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT' && r.path === '/api/posiciones/fijados/16')).toBe(true));
    await userEvent.click(unpin);
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/posiciones/fijados/29')).toBe(true));
    // Each change reads the pins and the board again.
    await waitFor(() => expect(requests.filter((r) => r.path === '/api/posiciones/tablero').length).toBeGreaterThan(1));
  });

  it("reads a league's board from the league, and a matchday's from that day", async () => {
    fakeFetch((r) => {
      if (r.path === '/api/grupos/5/tablero' || r.path === '/api/posiciones/tablero?fecha=2022-11-22') {
        return { status: 200, body: tablero };
      }
      if (r.path === '/api/posiciones/fijados') return { status: 200, body: [] };
      return undefined;
    });
    renderWithProviders(
      <>
        <Board tabla={{ grupo: 5, torneo: 1 }} jugadorId={3} titulo="Cerca tuyo en el grupo" />
        <Board tabla={{ fecha: '2022-11-22' }} jugadorId={3} titulo="Cerca tuyo en la fecha" conBonus={false} />
      </>,
    );
    expect(await screen.findByRole('table', { name: 'Cerca tuyo en el grupo' })).toBeInTheDocument();
    const fecha = await screen.findByRole('table', { name: 'Cerca tuyo en la fecha' });
    expect(within(fecha).queryByRole('columnheader', { name: 'Bonus' })).not.toBeInTheDocument();
  });

  it('says so when nobody is in the table yet', async () => {
    fakeFetch((r) => {
      if (r.path === '/api/posiciones/tablero') return { status: 200, body: { torneo: 0, version: 0, total: 0, filas: [] } };
      if (r.path === '/api/posiciones/fijados') return { status: 200, body: [] };
      return undefined;
    });
    renderWithProviders(<Board tabla={{}} jugadorId={3} />);
    expect(await screen.findByText('Todavía no hay jugadores en la tabla.')).toBeInTheDocument();
  });
});

describe('StandingsTable with pins', () => {
  it('has a pin button on every row but one\'s own, pressed for the pinned', async () => {
    const toggle = vi.fn();
    renderWithProviders(
      <StandingsTable
        posiciones={[fakePosicion(1, 10, 'Ana', 17), fakePosicion(2, 11, 'Beto', 9), fakePosicion(3, 12, 'Carla', 5)]}
        jugadorId={11}
        fijar={{ fijados: new Set([12]), known: true, toggle, pending: false, error: null }}
      />,
    );
    expect(screen.getByRole('button', { name: 'Fijar a Ana' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Quitar fijado a Carla' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('button', { name: /Beto/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Fijar a Ana' }));
    expect(toggle).toHaveBeenCalledWith(10, true);
    await userEvent.click(screen.getByRole('button', { name: 'Quitar fijado a Carla' }));
    expect(toggle).toHaveBeenCalledWith(12, false);
  });
});
