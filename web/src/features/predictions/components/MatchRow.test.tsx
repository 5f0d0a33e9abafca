import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderWithProviders } from '../../../test/render';
import { pendingReturn } from '../../session';
import type { Apuesta } from '../api/getApuestas';
import { partidosSinJugarQueryKey, type PartidoSinJugar } from '../api/getPartidosSinJugar';
import { draftOf, keepDraft } from '../save/drafts';
import { SESION_CERRADA, SIN_CONEXION, SIN_SERVIDOR } from '../save/saveError';
import { useFeedbackByMatch } from '../save/saveFeedback';
import { AVISO_SESION_CERRADA, MatchRow, RECUPERADA } from './MatchRow';

const EMAIL = 'ana@prode.test';

// Kick-off and cut-off in the local zone of whoever runs the tests: "cierra 06:00" everywhere.
const partido = (overrides: Partial<PartidoSinJugar> = {}): PartidoSinJugar => ({
  id: 8,
  torneo: 1,
  apostable: true,
  nombre_local: 'Argentina',
  nombre_visitante: 'Arabia Saudita',
  bandera_local: 'ar',
  bandera_visitante: 'sa',
  // The tournament's zone may be another: the card goes by inicio and cierre in the browser's.
  fecha: '2099-11-21',
  hora: '23:00',
  nombre_categoria: 'Grupo C',
  inicio: new Date(2099, 10, 22, 7, 0).toISOString(),
  cierre: new Date(2099, 10, 22, 6, 0).toISOString(),
  ...overrides,
});

const apuesta: Apuesta = { id: 31, partido: 8, goles_local: 2, goles_visitante: 1, jugador: EMAIL };

/** The card as the page holds it: its feedback lives above it. */
function Row({ p, a }: { p: PartidoSinJugar; a?: Apuesta }) {
  const feedback = useFeedbackByMatch();
  return (
    <ul>
      <MatchRow partido={p} apuesta={a} email={EMAIL} feedback={feedback.of(p.id)} onFeedback={(f) => feedback.set(p.id, f)} />
    </ul>
  );
}

const renderRow = (p: PartidoSinJugar, a?: Apuesta) => renderWithProviders(<Row p={p} a={a} />);
const localInput = () => screen.getByLabelText<HTMLInputElement>('Goles de Argentina');
const awayInput = () => screen.getByLabelText<HTMLInputElement>('Goles de Arabia Saudita');
const guardar = () => screen.getByRole('button', { name: 'Guardar' });

async function typeScore(local: string, visitante: string) {
  await userEvent.clear(localInput());
  await userEvent.type(localInput(), local);
  await userEvent.clear(awayInput());
  await userEvent.type(awayInput(), visitante);
}

/** A browser that lost its connection: navigator.onLine is false and the 'offline' event fired. */
function goOffline() {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  act(() => {
    window.dispatchEvent(new Event('offline'));
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  // TanStack Query's onlineManager is one for all tests: put it back online.
  window.dispatchEvent(new Event('online'));
  sessionStorage.clear();
});

describe('MatchRow', () => {
  it('shows both teams, flags, date, time, group and when predictions close', () => {
    fakeFetch(() => undefined);
    const { container } = renderRow(partido());
    expect(screen.getByText('Argentina')).toBeInTheDocument();
    expect(screen.getByText('Arabia Saudita')).toBeInTheDocument();
    expect(screen.getByText(/Grupo C/)).toHaveTextContent('Grupo C · 22/11/2099 · 07:00 · cierra 06:00');
    expect(container.querySelectorAll('img.flag')).toHaveLength(2);
  });

  it('links to the match page', () => {
    fakeFetch(() => undefined);
    renderRow(partido());
    const link = screen.getByRole('link', { name: /^Ver el partido/ });
    expect(link).toHaveAttribute('href', '/partidos/8');
    expect(link).toHaveAccessibleName('Ver el partido Argentina contra Arabia Saudita');
  });

  it('shows inputs and Guardar when the match takes predictions', () => {
    fakeFetch(() => undefined);
    renderRow(partido());
    expect(localInput()).toHaveAttribute('type', 'number');
    expect(awayInput()).toHaveAttribute('type', 'number');
    expect(guardar()).toBeInTheDocument();
  });

  it('shows neither inputs nor Guardar when the match does not take predictions', () => {
    fakeFetch(() => undefined);
    renderRow(partido({ apostable: false, cierre: new Date(2000, 0, 1, 12, 0).toISOString() }), apuesta);
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Guardar' })).not.toBeInTheDocument();
    expect(screen.getByText('(2 - 1)')).toBeInTheDocument();
    expect(screen.getByText('Jugadas cerradas')).toBeInTheDocument();
    expect(screen.getByText('cerró 12:00')).toBeInTheDocument();
  });

  it("shows 'Sin jugada' and empty inputs without a prediction", () => {
    fakeFetch(() => undefined);
    renderRow(partido());
    expect(screen.getByText('Sin jugada')).toBeInTheDocument();
    expect(localInput()).toHaveValue(null);
    expect(awayInput()).toHaveValue(null);
  });

  it('shows the previous prediction in brackets, and the inputs start from it', () => {
    fakeFetch(() => undefined);
    renderRow(partido(), apuesta);
    expect(screen.getByText('(2 - 1)')).toBeInTheDocument();
    expect(screen.queryByText('Sin jugada')).not.toBeInTheDocument();
    expect(localInput()).toHaveValue(2);
    expect(awayInput()).toHaveValue(1);
  });

  it.each([
    { empty: 'home', filled: awayInput, message: 'Te falta poner el resultado del equipo local.' },
    { empty: 'away', filled: localInput, message: 'Te falta poner el resultado del equipo visitante.' },
  ])('alerts when the $empty goals are empty and sends nothing', async ({ filled, message }) => {
    const { fetchMock } = fakeFetch(() => undefined);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderRow(partido());
    await userEvent.type(filled(), '1');
    await userEvent.click(guardar());
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith(message);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('creates the prediction with POST on the first save', async () => {
    const { requests } = fakeFetch((r) =>
      r.method === 'POST' ? { status: 201, body: { ...apuesta, goles_local: 0, goles_visitante: 3 } } : undefined,
    );
    renderRow(partido());
    await userEvent.type(localInput(), '0');
    await userEvent.type(awayInput(), '3');
    await userEvent.click(guardar());
    expect(await screen.findByText('Jugada guardada.')).toBeInTheDocument();
    expect(requests).toEqual([
      {
        method: 'POST',
        path: `/api/jugadores/${EMAIL}/apuestas`,
        body: { partido: 8, goles_local: 0, goles_visitante: 3, jugador: EMAIL },
      },
    ]);
  });

  it('updates the prediction with PUT when one number is changed', async () => {
    const { requests } = fakeFetch((r) => (r.method === 'PUT' ? { status: 200, body: apuesta } : undefined));
    renderRow(partido(), apuesta);
    await userEvent.clear(localInput());
    await userEvent.type(localInput(), '4');
    await userEvent.click(guardar());
    await screen.findByText('Jugada guardada.');
    expect(requests).toEqual([
      {
        method: 'PUT',
        path: `/api/jugadores/${EMAIL}/apuestas/31`,
        body: { partido: 8, goles_local: 4, goles_visitante: 1, jugador: EMAIL },
      },
    ]);
    // The saved message is about the saved numbers: changing one takes it away.
    await userEvent.type(awayInput(), '2');
    expect(screen.queryByText('Jugada guardada.')).not.toBeInTheDocument();
  });

  it('says in Spanish that a save made offline was not saved, keeps the score and offers Reintentar', async () => {
    let online = false;
    const { requests } = fakeFetch((r) => {
      if (!online) throw new TypeError('Failed to fetch');
      return r.method === 'PUT' ? { status: 200, body: { ...apuesta, goles_local: 3 } } : { status: 200, body: [] };
    });
    renderRow(partido(), apuesta);
    goOffline();
    await typeScore('3', '1');
    await userEvent.click(guardar());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(SIN_CONEXION);
    expect(localInput()).toHaveValue(3);
    expect(awayInput()).toHaveValue(1);
    expect(guardar()).toBeEnabled();

    online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    await userEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Jugada guardada.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').at(-1)?.body).toMatchObject({ goles_local: 3, goles_visitante: 1 });
  });

  it('says the server could not be reached when online, and keeps the score', async () => {
    fakeFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    renderRow(partido());
    await typeScore('1', '0');
    await userEvent.click(guardar());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(SIN_SERVIDOR);
    expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
    expect(localInput()).toHaveValue(1);
    expect(awayInput()).toHaveValue(0);
  });

  it('offers Reintentar when the server is in trouble', async () => {
    fakeFetch(() => ({
      status: 503,
      body: { error: 'servicio_no_disponible', mensaje: 'El servicio no está disponible. Probá en un momento.', request_id: 'r' },
    }));
    renderRow(partido());
    await typeScore('1', '0');
    await userEvent.click(guardar());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('El servicio no está disponible. Probá en un momento.');
    expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
  });

  it('keeps the typed score for after the next sign-in when the session ended (401)', async () => {
    fakeFetch(() => ({
      status: 401,
      body: { error: 'no_autenticado', mensaje: 'Tenés que ingresar para hacer esto.', request_id: 'r' },
    }));
    renderRow(partido(), apuesta);
    await typeScore('5', '4');
    await userEvent.click(guardar());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(SESION_CERRADA);
    expect(within(alert).queryByRole('button', { name: 'Reintentar' })).not.toBeInTheDocument();
    expect(draftOf(EMAIL, 8)).toEqual({ local: '5', visitante: '4' });
    expect(pendingReturn()).toEqual({ path: '/jugadas', aviso: AVISO_SESION_CERRADA });
  });

  it('starts from the score kept when the session ended, says so, and forgets it', () => {
    fakeFetch(() => undefined);
    keepDraft(EMAIL, 8, { local: '5', visitante: '4' });
    renderRow(partido(), apuesta);
    expect(localInput()).toHaveValue(5);
    expect(awayInput()).toHaveValue(4);
    expect(screen.getByText('(2 - 1)')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(RECUPERADA);
    expect(draftOf(EMAIL, 8)).toBeUndefined();
  });

  it("does not use another player's kept score", () => {
    fakeFetch(() => undefined);
    keepDraft('bruno@prode.test', 8, { local: '9', visitante: '9' });
    renderRow(partido(), apuesta);
    expect(localInput()).toHaveValue(2);
    expect(screen.queryByText(RECUPERADA)).not.toBeInTheDocument();
  });

  it("shows the server's refusal of a closed match without Reintentar, and reloads the list", async () => {
    const mensaje = 'Este partido ya no acepta jugadas: se pueden cambiar hasta 1 hora antes del inicio.';
    const { requests } = fakeFetch((r) =>
      r.method === 'PUT'
        ? { status: 409, body: { error: 'apuesta_cerrada', mensaje, request_id: 'r1' } }
        : { status: 200, body: [] },
    );
    const { queryClient } = renderRow(partido(), apuesta);
    queryClient.setQueryData(partidosSinJugarQueryKey, [partido()]);
    await typeScore('1', '1');
    await userEvent.click(guardar());
    const alert = await within(screen.getByRole('listitem')).findByRole('alert');
    expect(alert).toHaveTextContent(mensaje);
    expect(within(alert).queryByRole('button', { name: 'Reintentar' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(queryClient.getQueryState(partidosSinJugarQueryKey)?.isInvalidated).toBe(true);
  });

  it('shows the refusal of a finished match, not the cut-off message, without Reintentar', async () => {
    const mensaje = 'Este partido ya se jugó: no acepta más jugadas.';
    fakeFetch((r) =>
      r.method === 'PUT' ? { status: 409, body: { error: 'partido_finalizado', mensaje, request_id: 'r1' } } : undefined,
    );
    const { queryClient } = renderRow(partido(), apuesta);
    queryClient.setQueryData(partidosSinJugarQueryKey, [partido()]);
    await typeScore('1', '1');
    await userEvent.click(guardar());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(mensaje);
    expect(within(alert).queryByRole('button', { name: 'Reintentar' })).not.toBeInTheDocument();
    // A played match leaves the list: reloading it now would take the message away with the card.
    expect(queryClient.getQueryState(partidosSinJugarQueryKey)?.isInvalidated).toBe(false);
  });

  it('refuses 1.5 goals in player language, sending nothing and offering no Reintentar', async () => {
    const { fetchMock } = fakeFetch(() => undefined);
    renderRow(partido());
    await typeScore('1.5', '0');
    await userEvent.click(guardar());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Los goles tienen que ser un número entero de 0 a 99.');
    expect(alert).not.toHaveTextContent(/campo|tipo incorrecto/);
    expect(within(alert).queryByRole('button', { name: 'Reintentar' })).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(localInput()).toHaveValue(1.5);
  });

  it.each(['100', '-1'])('refuses %s goals before sending', async (goles) => {
    const { fetchMock } = fakeFetch(() => undefined);
    renderRow(partido());
    await typeScore('0', goles);
    await userEvent.click(guardar());
    expect(await screen.findByRole('alert')).toHaveTextContent('Los goles tienen que ser un número entero de 0 a 99.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes an old error box away when an alert comes next', async () => {
    const alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => {
      // The box is gone before the dialog shows.
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
    fakeFetch(() => ({ status: 409, body: { error: 'apuesta_cerrada', mensaje: 'Cerrado.', request_id: 'r' } }));
    renderRow(partido(), apuesta);
    await userEvent.click(guardar());
    expect(await screen.findByRole('alert')).toHaveTextContent('Cerrado.');
    await userEvent.clear(localInput());
    await userEvent.click(guardar());
    expect(alertSpy).toHaveBeenCalledWith('Te falta poner el resultado del equipo local.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('takes an old error box away when a later save succeeds', async () => {
    let calls = 0;
    fakeFetch((r) => {
      if (r.method !== 'PUT') return { status: 200, body: [] };
      calls += 1;
      return calls === 1
        ? { status: 400, body: { error: 'datos_invalidos', mensaje: 'La jugada es de otro partido.', request_id: 'r' } }
        : { status: 200, body: apuesta };
    });
    renderRow(partido(), apuesta);
    await userEvent.click(guardar());
    expect(await screen.findByRole('alert')).toHaveTextContent('La jugada es de otro partido.');
    await userEvent.click(guardar());
    expect(await screen.findByText('Jugada guardada.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
