import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderWithProviders } from '../../../test/render';
import type { Apuesta } from '../api/getApuestas';
import type { PartidoSinJugar } from '../api/getPartidosSinJugar';
import { MatchRow } from './MatchRow';

const EMAIL = 'ana@prode.test';

const partido = (overrides: Partial<PartidoSinJugar> = {}): PartidoSinJugar => ({
  id: 8,
  torneo: 1,
  apostable: true,
  nombre_local: 'Argentina',
  nombre_visitante: 'Arabia Saudita',
  bandera_local: 'ar',
  bandera_visitante: 'sa',
  fecha: '2022-11-22',
  hora: '07:00',
  nombre_categoria: 'Grupo C',
  inicio: '2099-11-22T10:00:00Z',
  cierre: '2099-11-22T09:00:00Z',
  ...overrides,
});

const apuesta: Apuesta = { id: 31, partido: 8, goles_local: 2, goles_visitante: 1, jugador: EMAIL };

function renderRow(p: PartidoSinJugar, a?: Apuesta) {
  return renderWithProviders(
    <ul>
      <MatchRow partido={p} apuesta={a} email={EMAIL} />
    </ul>,
  );
}

describe('MatchRow', () => {
  it('shows both teams, flags, date, time and group', () => {
    fakeFetch(() => undefined);
    const { container } = renderRow(partido());
    expect(screen.getByText('Argentina')).toBeInTheDocument();
    expect(screen.getByText('Arabia Saudita')).toBeInTheDocument();
    expect(screen.getByText(/Grupo C/)).toHaveTextContent('Grupo C · 22/11/2022 · 07:00');
    const flags = container.querySelectorAll('img.flag');
    expect(flags).toHaveLength(2);
  });

  it('shows inputs and Guardar when the match takes predictions', () => {
    fakeFetch(() => undefined);
    renderRow(partido());
    expect(screen.getByLabelText('Goles de Argentina')).toHaveAttribute('type', 'number');
    expect(screen.getByLabelText('Goles de Arabia Saudita')).toHaveAttribute('type', 'number');
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeInTheDocument();
  });

  it('shows neither inputs nor Guardar when the match does not take predictions', () => {
    fakeFetch(() => undefined);
    renderRow(partido({ apostable: false }), apuesta);
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Guardar' })).not.toBeInTheDocument();
    expect(screen.getByText('(2 - 1)')).toBeInTheDocument();
  });

  it("shows 'Sin jugada' without a prediction", () => {
    fakeFetch(() => undefined);
    renderRow(partido());
    expect(screen.getByText('Sin jugada')).toBeInTheDocument();
  });

  it('shows the previous prediction in brackets', () => {
    fakeFetch(() => undefined);
    renderRow(partido(), apuesta);
    expect(screen.getByText('(2 - 1)')).toBeInTheDocument();
    expect(screen.queryByText('Sin jugada')).not.toBeInTheDocument();
  });

  it('alerts when the home goals are empty and sends nothing', async () => {
    const { fetchMock } = fakeFetch(() => undefined);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderRow(partido());
    await userEvent.type(screen.getByLabelText('Goles de Arabia Saudita'), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('Te falta poner el resultado del equipo local.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('alerts when the away goals are empty and sends nothing', async () => {
    const { fetchMock } = fakeFetch(() => undefined);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderRow(partido());
    await userEvent.type(screen.getByLabelText('Goles de Argentina'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('Te falta poner el resultado del equipo visitante.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('creates the prediction with POST on the first save', async () => {
    const { requests } = fakeFetch((r) =>
      r.method === 'POST' ? { status: 201, body: { ...apuesta, goles_local: 0, goles_visitante: 3 } } : undefined,
    );
    renderRow(partido());
    await userEvent.type(screen.getByLabelText('Goles de Argentina'), '0');
    await userEvent.type(screen.getByLabelText('Goles de Arabia Saudita'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Jugada guardada.')).toBeInTheDocument();
    expect(requests).toEqual([
      {
        method: 'POST',
        path: `/api/jugadores/${EMAIL}/apuestas`,
        body: { partido: 8, goles_local: 0, goles_visitante: 3, jugador: EMAIL },
      },
    ]);
  });

  it('updates the prediction with PUT on later saves', async () => {
    const { requests } = fakeFetch((r) => (r.method === 'PUT' ? { status: 200, body: apuesta } : undefined));
    renderRow(partido(), apuesta);
    await userEvent.type(screen.getByLabelText('Goles de Argentina'), '4');
    await userEvent.type(screen.getByLabelText('Goles de Arabia Saudita'), '4');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await screen.findByText('Jugada guardada.');
    expect(requests).toEqual([
      {
        method: 'PUT',
        path: `/api/jugadores/${EMAIL}/apuestas/31`,
        body: { partido: 8, goles_local: 4, goles_visitante: 4, jugador: EMAIL },
      },
    ]);
  });

  it("shows the server's refusal next to the match, with Reintentar", async () => {
    const mensaje = 'Ya no se aceptan jugadas para este partido: cerraron 1 hora antes del comienzo.';
    const { requests } = fakeFetch((r) =>
      r.method === 'PUT'
        ? { status: 409, body: { error: 'apuesta_cerrada', mensaje, request_id: 'r1' } }
        : { status: 200, body: [] },
    );
    renderRow(partido(), apuesta);
    await userEvent.type(screen.getByLabelText('Goles de Argentina'), '1');
    await userEvent.type(screen.getByLabelText('Goles de Arabia Saudita'), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    const row = screen.getByRole('listitem');
    const alert = await within(row).findByRole('alert');
    expect(alert).toHaveTextContent(mensaje);
    await userEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(2));
  });
});
