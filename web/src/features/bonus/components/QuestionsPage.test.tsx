import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeFetch, type Recorded } from '../../../test/fakeFetch';
import { fakePregunta } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import type { Pregunta } from '../api/types';
import { OpenQuestionsLink } from './OpenQuestionsLink';
import { QuestionsPage } from './QuestionsPage';

const jugador = { id: 3, nombre: 'Ana', email: 'ana@prode.test', admin: false };
const torneos = [{ id: 1, nombre: 'Mundial 2026', actual: true, partidos: 104, finalizados: 0 }];
const CERRADA = 'La pregunta ya está cerrada; no se puede cambiar la respuesta.';

type Answer = { status: number; body?: unknown } | undefined;

function serve(preguntas: () => Pregunta[], extra: (r: Recorded) => Answer = () => undefined, signedIn = true) {
  return fakeFetch((r) => {
    if (r.path === '/api/sesion') {
      return signedIn ? { status: 200, body: jugador } : { status: 401, body: { error: 'no_autenticado', mensaje: 'x' } };
    }
    if (r.path === '/api/torneos') return { status: 200, body: torneos };
    if (r.method === 'GET' && r.path === '/api/preguntas') return { status: 200, body: preguntas() };
    return extra(r);
  });
}

describe('QuestionsPage', () => {
  it('before the lock: the options, and the chosen one saved', async () => {
    let mia: number | null = null;
    const { requests } = serve(
      () => [fakePregunta({ mi_respuesta: mia })],
      (r) => {
        if (r.method === 'PUT' && r.path === '/api/preguntas/1/respuesta') {
          mia = (r.body as { opcion: number }).opcion;
          return { status: 200, body: { pregunta: 1, opcion: mia } };
        }
        return undefined;
      },
    );
    const { container } = renderWithProviders(<QuestionsPage />, { route: '/preguntas' });
    expect(await screen.findByRole('heading', { level: 2, name: '¿Quién sale campeón?' })).toBeInTheDocument();
    expect(screen.getByText(/20 puntos · Podés responder hasta el/)).toBeInTheDocument();
    const select = await screen.findByRole('combobox', { name: 'Tu respuesta' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Elegí una opción', 'Argentina', 'Brasil', 'Francia']);
    const guardar = screen.getByRole('button', { name: 'Guardar respuesta' });
    expect(guardar).toBeDisabled();
    await userEvent.selectOptions(select, 'Francia');
    await userEvent.click(guardar);
    expect(await screen.findByText('Respuesta guardada.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT')).toEqual([
      { method: 'PUT', path: '/api/preguntas/1/respuesta', body: { opcion: 13 } },
    ]);
    // The list read again holds the answer: the select shows it, and saving it again is pointless.
    await waitFor(() => expect(guardar).toBeDisabled());
    expect(select).toHaveValue('13');
    await screen.findByRole('combobox', { name: 'Torneo' });
    expect(await axeViolations(container)).toEqual([]);
  });

  it("refused after the lock: the server's Spanish reason, and the question shows closed", async () => {
    let cerrada = false;
    serve(
      () => [fakePregunta({ cerrada })],
      (r) => {
        if (r.method === 'PUT') {
          cerrada = true;
          return { status: 409, body: { error: 'pregunta_cerrada', mensaje: CERRADA, request_id: 'x' } };
        }
        if (r.path === '/api/preguntas/1/respuestas') return { status: 200, body: { pregunta: 1, total: 0, opciones: [] } };
        return undefined;
      },
    );
    renderWithProviders(<QuestionsPage />, { route: '/preguntas' });
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Tu respuesta' }), 'Brasil');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar respuesta' }));
    // The list is read again, closed: the form (and its message) give way to the closed question.
    expect(await screen.findByText(/Cerró el/)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Tu respuesta' })).not.toBeInTheDocument();
    expect(screen.getByText('No respondiste esta pregunta.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(CERRADA);
  });

  it('after the lock: one\'s answer, the right one, the points won and how everyone answered', async () => {
    serve(
      () => [fakePregunta({ cerrada: true, cierre: '2026-06-11T18:00:00Z', mi_respuesta: 11, correctas: [11] })],
      (r) =>
        r.path === '/api/preguntas/1/respuestas'
          ? {
              status: 200,
              body: {
                pregunta: 1,
                total: 5,
                opciones: [
                  { opcion: 11, texto: 'Argentina', cantidad: 3 },
                  { opcion: 12, texto: 'Brasil', cantidad: 2 },
                  { opcion: 13, texto: 'Francia', cantidad: 0 },
                ],
              },
            }
          : undefined,
    );
    const { container } = renderWithProviders(<QuestionsPage />, { route: '/preguntas' });
    expect(await screen.findByText('Tu respuesta: Argentina.')).toBeInTheDocument();
    expect(screen.getByText(/Respuesta correcta:/)).toHaveTextContent('Respuesta correcta: Argentina.');
    expect(screen.getByText('¡Acertaste! Sumaste 20 puntos.')).toBeInTheDocument();
    const tabla = await screen.findByRole('table', { name: 'Respuestas de todos (5 jugadores)' });
    expect(within(tabla).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['ArgentinaCorrecta3', 'Brasil2', 'Francia0']);
    expect(screen.queryByRole('combobox', { name: 'Tu respuesta' })).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('a tie: two right answers; a wrong answer wins nothing', async () => {
    serve(
      () => [fakePregunta({ texto: '¿Quién es el goleador?', cerrada: true, mi_respuesta: 13, correctas: [11, 12] })],
      (r) => (r.path === '/api/preguntas/1/respuestas' ? { status: 200, body: { pregunta: 1, total: 1, opciones: [] } } : undefined),
    );
    renderWithProviders(<QuestionsPage />, { route: '/preguntas' });
    expect(await screen.findByText(/Respuestas correctas:/)).toHaveTextContent('Respuestas correctas: Argentina y Brasil.');
    expect(screen.getByText('No acertaste: no sumaste puntos.')).toBeInTheDocument();
  });

  it('signed out: the questions and their options, no form, no one\'s answers', async () => {
    const { requests } = serve(() => [fakePregunta()], () => undefined, false);
    renderWithProviders(<QuestionsPage />, { route: '/preguntas' });
    expect(await screen.findByText('Opciones: Argentina, Brasil, Francia. Ingresá para responder.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Tu respuesta' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.path.includes('/respuesta'))).toBe(false);
  });
});

describe('OpenQuestionsLink', () => {
  it('points to /preguntas while a question is open, saying how many are unanswered', async () => {
    serve(() => [fakePregunta(), fakePregunta({ id: 2, mi_respuesta: 12 }), fakePregunta({ id: 3, cerrada: true })]);
    renderWithProviders(<OpenQuestionsLink />);
    expect(await screen.findByRole('link', { name: 'Responder las preguntas' })).toHaveAttribute('href', '/preguntas');
    expect(screen.getByText(/Tenés 1 pregunta sin responder/)).toBeInTheDocument();
  });

  it('shows nothing when every question is closed', async () => {
    const { requests } = serve(() => [fakePregunta({ cerrada: true })]);
    const { container } = renderWithProviders(<OpenQuestionsLink />);
    await waitFor(() => expect(requests.length).toBe(1));
    expect(container).toBeEmptyDOMElement();
  });
});
