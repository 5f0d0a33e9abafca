import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { fakePartidoDeGrupo } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import type { Partido } from '../api/getPartidos';
import AdminPage from './AdminPage';

const partido = (id: number, local: string, visitante: string): Partido =>
  fakePartidoDeGrupo({
    id,
    numero: id,
    apostable: true,
    codigo_local: null,
    codigo_visitante: null,
    nombre_local: local,
    nombre_visitante: visitante,
    bandera_local: '',
    bandera_visitante: '',
  });

describe('AdminPage', () => {
  it("lists the current tournament's matches, and another tournament's on request", async () => {
    fakeFetch((r) => {
      if (r.path === '/api/torneos') {
        return {
          status: 200,
          body: [
            { id: 2, nombre: 'Mundial 2026', actual: true, partidos: 104, finalizados: 0 },
            { id: 1, nombre: 'Mundial 2022', actual: false, partidos: 64, finalizados: 64 },
          ],
        };
      }
      if (r.path === '/api/partidos') return { status: 200, body: [partido(1, 'México', 'Sudáfrica')] };
      if (r.path === '/api/partidos?torneo=1') return { status: 200, body: [partido(201, 'Qatar', 'Ecuador')] };
      if (r.path.startsWith('/api/auditoria')) return { status: 200, body: { pagina: 1, por_pagina: 10, total: 0, cambios: [] } };
      return undefined;
    });
    renderWithProviders(<AdminPage />, { route: '/admin' });
    expect(await screen.findByText(/México/)).toBeInTheDocument();
    // The kick-off in the device's clock (UTC here), as the match's schedule form edits it.
    expect(screen.getByText('Grupo A · 11/06/2026 19:00 ·', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Torneo actual' })).toBeInTheDocument();

    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Partidos del torneo' }), 'Mundial 2022');
    expect(await screen.findByText(/Ecuador/)).toBeInTheDocument();
    expect(screen.queryByText(/México/)).not.toBeInTheDocument();
  });
});
