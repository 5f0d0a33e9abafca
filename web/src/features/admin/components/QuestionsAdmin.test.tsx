import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeFetch, type Recorded } from '../../../test/fakeFetch';
import { renderWithProviders } from '../../../test/render';
import type { PreguntaAdmin } from '../api/preguntas';
import { optionLines } from './QuestionForm';
import { QuestionsAdmin } from './QuestionsAdmin';

const torneos = [
  { id: 2, nombre: 'Mundial 2026', actual: true, partidos: 104, finalizados: 0 },
  { id: 1, nombre: 'Mundial 2022', actual: false, partidos: 64, finalizados: 64 },
];
const goleador = (over: Partial<PreguntaAdmin> = {}): PreguntaAdmin => ({
  id: 7,
  torneo: 2,
  texto: '¿Quién es el goleador?',
  puntos: 15,
  cierre: '2026-06-11T18:00:00Z',
  cierre_propio: null,
  cerrada: false,
  opciones: [
    { id: 70, texto: 'Messi' },
    { id: 71, texto: 'Mbappé' },
    { id: 72, texto: 'Kane' },
  ],
  correctas: [],
  ...over,
});

type Answer = { status: number; body?: unknown } | undefined;

function serve(preguntas: () => PreguntaAdmin[], extra: (r: Recorded) => Answer = () => undefined) {
  return fakeFetch((r) => {
    if (r.path === '/api/torneos') return { status: 200, body: torneos };
    if (r.method === 'GET' && r.path === '/api/torneos/2/preguntas') return { status: 200, body: preguntas() };
    if (r.method === 'GET' && r.path === '/api/torneos/1/preguntas') return { status: 200, body: [] };
    return extra(r);
  });
}

const writes = (requests: Recorded[]) => requests.filter((r) => r.method !== 'GET');

describe('QuestionsAdmin', () => {
  it("creates a question of the current tournament with its options, one per line, and the default lock", async () => {
    const { requests } = serve(
      () => [],
      (r) => (r.method === 'POST' ? { status: 201, body: goleador() } : undefined),
    );
    const { container } = renderWithProviders(<QuestionsAdmin />);
    expect(await screen.findByText('Este torneo todavía no tiene preguntas.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Pregunta'), '¿Quién es el goleador?');
    await userEvent.clear(screen.getByLabelText('Puntos'));
    await userEvent.type(screen.getByLabelText('Puntos'), '15');
    await userEvent.type(screen.getByLabelText('Opciones (una por línea, entre 2 y 64)'), ' Messi {enter}{enter}Mbappé{enter}Kane');
    expect(screen.getByLabelText('Cierre (hora de este dispositivo, opcional)')).toHaveAccessibleDescription(
      'Vacío: una hora antes del primer partido del torneo.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Crear pregunta' }));
    expect(await screen.findByText('Pregunta creada.')).toBeInTheDocument();
    expect(writes(requests)).toEqual([
      {
        method: 'POST',
        path: '/api/torneos/2/preguntas',
        body: { texto: '¿Quién es el goleador?', puntos: 15, cierre: null, opciones: ['Messi', 'Mbappé', 'Kane'] },
      },
    ]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it("'Equipos del torneo' sends no options, with equipos; a lock time is sent in UTC", async () => {
    const { requests } = serve(
      () => [],
      (r) => (r.method === 'POST' ? { status: 201, body: goleador() } : undefined),
    );
    renderWithProviders(<QuestionsAdmin />);
    await userEvent.type(await screen.findByLabelText('Pregunta'), '¿Quién sale campeón?');
    await userEvent.click(screen.getByRole('radio', { name: 'Equipos del torneo' }));
    expect(screen.queryByLabelText(/Opciones \(una por línea/)).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Cierre (hora de este dispositivo, opcional)'), '2026-06-10T12:30');
    await userEvent.click(screen.getByRole('button', { name: 'Crear pregunta' }));
    await screen.findByText('Pregunta creada.');
    expect(writes(requests)[0]?.body).toEqual({
      texto: '¿Quién sale campeón?',
      puntos: 10,
      cierre: new Date('2026-06-10T12:30').toISOString().replace(/\.\d{3}Z$/, 'Z'),
      opciones: [],
      equipos: true,
    });
  });

  it('enters the right answers (a tie: two), then clears them after confirming', async () => {
    let correctas: number[] = [];
    const { requests } = serve(
      () => [goleador({ correctas })],
      (r) => {
        if (r.method === 'PUT' && r.path === '/api/torneos/2/preguntas/7/respuesta') {
          correctas = (r.body as { opciones: number[] }).opciones;
          return { status: 200, body: goleador({ correctas }) };
        }
        if (r.method === 'DELETE' && r.path === '/api/torneos/2/preguntas/7/respuesta') {
          correctas = [];
          return { status: 204 };
        }
        return undefined;
      },
    );
    renderWithProviders(<QuestionsAdmin />);
    const opciones = await screen.findByRole('group', { name: 'Respuesta correcta (más de una si hay empate)' });
    const guardar = screen.getByRole('button', { name: 'Guardar respuesta correcta' });
    expect(guardar).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Borrar respuesta correcta' })).not.toBeInTheDocument();
    await userEvent.click(within(opciones).getByRole('checkbox', { name: 'Messi' }));
    await userEvent.click(within(opciones).getByRole('checkbox', { name: 'Kane' }));
    await userEvent.click(guardar);
    expect(await screen.findByText('Respuesta correcta guardada: los puntos se recalculan.')).toBeInTheDocument();
    const borrar = await screen.findByRole('button', { name: 'Borrar respuesta correcta' });
    expect(screen.getByRole('checkbox', { name: 'Messi' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Kane' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Mbappé' })).not.toBeChecked();

    await userEvent.click(borrar);
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.getByRole('button', { name: 'Borrar respuesta correcta' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Borrar respuesta correcta' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sí, borrar la respuesta' }));
    expect(await screen.findByText('Respuesta correcta borrada.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Borrar respuesta correcta' })).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: 'Messi' })).not.toBeChecked();
    expect(writes(requests)).toEqual([
      { method: 'PUT', path: '/api/torneos/2/preguntas/7/respuesta', body: { opciones: [70, 72] } },
      { method: 'DELETE', path: '/api/torneos/2/preguntas/7/respuesta', body: undefined },
    ]);
  });

  it("another tournament's questions, chosen in the list", async () => {
    const { requests } = serve(() => [goleador()]);
    renderWithProviders(<QuestionsAdmin />);
    await screen.findByText('¿Quién es el goleador?');
    await userEvent.selectOptions(screen.getByLabelText('Preguntas del torneo'), 'Mundial 2022');
    expect(await screen.findByText('Este torneo todavía no tiene preguntas.')).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toContain('/api/torneos/1/preguntas');
  });
});

describe('optionLines', () => {
  it('keeps each typed line, trimmed, without the blank ones', () => {
    expect(optionLines(' Argentina \n\n  \nBrasil\r\nFrancia ')).toEqual(['Argentina', 'Brasil', 'Francia']);
  });
});
