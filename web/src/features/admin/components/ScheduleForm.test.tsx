import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { fakePartidoDeGrupo } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { ScheduleForm } from './ScheduleForm';

const partido = fakePartidoDeGrupo({ id: 7, numero: 7 });

const REFUSAL = 'Las jugadas de todos para este partido ya se mostraron. Con ese horario el partido vuelve a aceptar jugadas.';

describe('ScheduleForm', () => {
  it("shows the server's refusal to reopen betting, and moves the match on purpose only when asked", async () => {
    const { requests } = fakeFetch((r) =>
      (r.body as { forzar?: boolean }).forzar
        ? { status: 200, body: partido }
        : { status: 409, body: { error: 'apuestas_reveladas', mensaje: REFUSAL, request_id: 'x' } },
    );
    renderWithProviders(<ScheduleForm partido={partido} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cambiar horario' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(REFUSAL);
    expect(screen.queryByRole('button', { name: 'Reintentar' })).not.toBeInTheDocument();

    // Cancelling leaves everything as it was.
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Cambiar horario' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cambiar igual y reabrir las apuestas' }));
    expect(await screen.findByText('Horario cambiado. Quedó registrado que reabriste las apuestas.')).toBeInTheDocument();
    const inicio = '2026-06-11T19:00:00Z'; // the kick-off shown, unchanged
    expect(requests.map((r) => r.body)).toEqual([
      { inicio, forzar: false },
      { inicio, forzar: false },
      { inicio, forzar: true },
    ]);
  });
});
