import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderWithProviders } from '../../../test/render';
import { CurrentTournamentForm } from './CurrentTournamentForm';

const mundial2022 = { id: 1, nombre: 'Mundial 2022', actual: true, partidos: 64, finalizados: 64 };
const mundial2026 = { id: 2, nombre: 'Mundial 2026', actual: false, partidos: 104, finalizados: 0 };

describe('CurrentTournamentForm', () => {
  it('makes another tournament the current one and says so', async () => {
    let torneos = [mundial2022, mundial2026];
    const { requests } = fakeFetch((r) => {
      if (r.method === 'GET' && r.path === '/api/torneos') return { status: 200, body: torneos };
      if (r.method === 'PUT' && r.path === '/api/torneos/actual') {
        torneos = [{ ...mundial2026, actual: true }, { ...mundial2022, actual: false }];
        return { status: 200, body: torneos[0] };
      }
      return undefined;
    });
    renderWithProviders(<CurrentTournamentForm />);
    const select = await screen.findByRole('combobox', { name: 'Torneo actual' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Mundial 2022 (actual) · 64 de 64 partidos jugados',
      'Mundial 2026 · 0 de 104 partidos jugados',
    ]);
    const cambiar = screen.getByRole('button', { name: 'Cambiar el torneo actual' });
    expect(cambiar).toBeDisabled();

    await userEvent.selectOptions(select, 'Mundial 2026 · 0 de 104 partidos jugados');
    await userEvent.click(cambiar);
    expect(await screen.findByRole('status')).toHaveTextContent('Listo: Mundial 2026 es ahora el torneo actual.');
    expect(requests.find((r) => r.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/api/torneos/actual',
      body: { torneo: 2 },
    });
    // The list is reloaded: the new current one is marked.
    expect(await screen.findByRole('option', { name: 'Mundial 2026 (actual) · 0 de 104 partidos jugados' })).toBeInTheDocument();
  });

  it("shows the server's refusal in Spanish with a way to retry", async () => {
    fakeFetch((r) => {
      if (r.method === 'GET') return { status: 200, body: [mundial2022, mundial2026] };
      return { status: 403, body: { error: 'prohibido', mensaje: 'Solo los organizadores pueden hacer esto.', request_id: 'r' } };
    });
    renderWithProviders(<CurrentTournamentForm />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Torneo actual' }), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Cambiar el torneo actual' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Solo los organizadores pueden hacer esto.');
    expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
  });
});
