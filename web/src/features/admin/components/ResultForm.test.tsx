import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeFetch } from '../../../test/fakeFetch';
import { fakePartido, resultadoConPenales } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import type { Partido } from '../api/getPartidos';
import { ResultForm } from './ResultForm';

const partido = fakePartido();

const played: Partido = { ...partido, estado: 'finalizado', resultado: resultadoConPenales };

/** A match that has not kicked off yet. */
const upcoming: Partido = { ...partido, fecha: '2099-06-11', hora: '16:00', inicio: '2099-06-11T19:00:00Z', cierre: '2099-06-11T18:00:00Z' };

const REFUSAL =
  'Las jugadas de todos para este partido ya se mostraron. Si borrás el resultado, el partido vuelve a aceptar jugadas hasta el cierre.';

describe('ResultForm', () => {
  it('sends the 90-minute score, with extra time and penalties only when entered', async () => {
    const { requests } = fakeFetch(() => ({ status: 200, body: partido }));
    renderWithProviders(<ResultForm partido={partido} />);
    await userEvent.type(screen.getByLabelText('Goles de Argentina'), '2');
    await userEvent.type(screen.getByLabelText('Goles de Francia'), '2');
    await userEvent.type(screen.getByLabelText('Penales de Argentina'), '4');
    await userEvent.type(screen.getByLabelText('Penales de Francia'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar resultado' }));
    expect(await screen.findByText('Resultado guardado.')).toBeInTheDocument();
    expect(requests[0]).toEqual({
      method: 'PUT',
      path: '/api/partidos/64/resultado',
      body: {
        goles_local: 2,
        goles_visitante: 2,
        goles_local_alargue: null,
        goles_visitante_alargue: null,
        penales_local: 4,
        penales_visitante: 2,
      },
    });
  });

  it('asks before deleting a result: cancelling keeps it, confirming deletes it', async () => {
    const { requests } = fakeFetch(() => ({ status: 200, body: partido }));
    const { container } = renderWithProviders(<ResultForm partido={played} />);
    await userEvent.click(screen.getByRole('button', { name: 'Borrar resultado' }));

    const question = screen.getByRole('group', {
      name: '¿Borrar el resultado de Argentina - Francia? Los puntos de ese partido se recalculan.',
    });
    expect(question).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toHaveFocus(); // the answer that changes nothing
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(question).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Borrar resultado' })).toHaveFocus();
    expect(requests).toEqual([]);

    // Escape cancels too.
    await userEvent.click(screen.getByRole('button', { name: 'Borrar resultado' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: /¿Borrar el resultado/ })).not.toBeInTheDocument();
    expect(requests).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Borrar resultado' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sí, borrar el resultado' }));
    expect(await screen.findByText('Resultado borrado.')).toBeInTheDocument();
    expect(requests).toEqual([{ method: 'DELETE', path: '/api/partidos/64/resultado', body: undefined }]);
  });

  it('warns before entering a result before kick-off, and sends it only once confirmed', async () => {
    const { requests } = fakeFetch(() => ({ status: 200, body: upcoming }));
    renderWithProviders(<ResultForm partido={upcoming} />);
    await userEvent.type(screen.getByLabelText('Goles de Argentina'), '1');
    await userEvent.type(screen.getByLabelText('Goles de Francia'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar resultado' }));
    const warning = screen.getByRole('group', {
      name: 'El partido todavía no empezó (empieza el 11/06/2099 a las 19:00). ¿Cargar el resultado igual?',
    });
    expect(warning).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.getByRole('button', { name: 'Guardar resultado' })).toHaveFocus();
    expect(requests).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Guardar resultado' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sí, cargar el resultado' }));
    expect(await screen.findByText('Resultado guardado.')).toBeInTheDocument();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'PUT', body: { goles_local: 1, goles_visitante: 0 } });
  });

  it("shows the server's refusal to reopen betting, and deletes on purpose only when asked", async () => {
    const { requests } = fakeFetch((r) =>
      r.body === undefined
        ? { status: 409, body: { error: 'apuestas_reveladas', mensaje: REFUSAL, request_id: 'x' } }
        : { status: 200, body: partido },
    );
    const { container } = renderWithProviders(<ResultForm partido={played} />);
    await userEvent.click(screen.getByRole('button', { name: 'Borrar resultado' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sí, borrar el resultado' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(REFUSAL);
    expect(screen.queryByRole('button', { name: 'Reintentar' })).not.toBeInTheDocument(); // retrying as is cannot help
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Borrar igual y reabrir las apuestas' }));
    expect(await screen.findByText('Resultado borrado. Quedó registrado que reabriste las apuestas.')).toBeInTheDocument();
    expect(requests.map((r) => r.body)).toEqual([undefined, { forzar: true }]);
  });
});
