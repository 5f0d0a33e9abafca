import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderWithProviders } from '../../../test/render';
import type { CambioOrganizador } from '../api/getAuditoria';
import { OrganiserChanges } from './OrganiserChanges';

const cambio = (id: number, c: Partial<CambioOrganizador>): CambioOrganizador => ({
  id,
  cuando: '2026-11-24T23:15:00Z',
  fecha: '2026-11-24',
  hora: '20:15',
  email: 'admin@prode.test',
  nombre: 'Organizador Demo',
  accion: 'resultado_cargado',
  torneo_id: 1,
  torneo: 'World Cup 2022',
  partido_id: 64,
  partido: 'Argentina - Francia',
  antes: 'sin resultado',
  despues: '2 - 1',
  forzado: false,
  ...c,
});

describe('OrganiserChanges', () => {
  it('lists who changed what and when, newest first, a page at a time', async () => {
    const { requests } = fakeFetch((r) => {
      if (r.path === '/api/auditoria?pagina=1&por_pagina=10') {
        return {
          status: 200,
          body: {
            pagina: 1,
            por_pagina: 10,
            total: 12,
            cambios: [
              cambio(12, { accion: 'resultado_borrado', antes: '2 - 1', despues: 'sin resultado', forzado: true }),
              cambio(11, { accion: 'torneo_actual', partido_id: null, partido: '', antes: 'World Cup 2022', despues: 'World Cup 2026', email: 'ana@prode.test', nombre: 'Ana' }),
            ],
          },
        };
      }
      if (r.path === '/api/auditoria?pagina=2&por_pagina=10') {
        return { status: 200, body: { pagina: 2, por_pagina: 10, total: 12, cambios: [cambio(2, { accion: 'horario', antes: '20/11/2026 13:00', despues: '21/11/2026 13:00' })] } };
      }
      return undefined;
    });
    const { container } = renderWithProviders(<OrganiserChanges />);
    const list = await screen.findByRole('list');
    const [borrado, torneo] = within(list).getAllByRole('listitem');
    expect(borrado).toHaveTextContent('Borró el resultado de Argentina - Francia');
    expect(borrado).toHaveTextContent('2 - 1 → sin resultado');
    expect(borrado).toHaveTextContent('Reabrió las apuestas después de que se mostraron las jugadas.');
    expect(borrado).toHaveTextContent('Organizador Demo (admin@prode.test)');
    expect(within(borrado!).getByText('24/11/2026 20:15')).toHaveAttribute('dateTime', '2026-11-24T23:15:00Z');
    expect(torneo).toHaveTextContent('Cambió el torneo actual · World Cup 2022');
    expect(torneo).toHaveTextContent('World Cup 2022 → World Cup 2026');
    expect(torneo).toHaveTextContent('Ana (ana@prode.test)');
    expect(torneo).not.toHaveTextContent('Reabrió');
    expect(screen.getByText('Página 1 de 2')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Anteriores' }));
    expect(await screen.findByText('Cambió el horario')).toBeInTheDocument();
    expect(screen.getByText('20/11/2026 13:00 → 21/11/2026 13:00')).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toEqual(['/api/auditoria?pagina=1&por_pagina=10', '/api/auditoria?pagina=2&por_pagina=10']);
  });

  it("names the bonus questions' changes (issue 16) with their tournament", async () => {
    fakeFetch(() => ({
      status: 200,
      body: {
        pagina: 1,
        por_pagina: 10,
        total: 2,
        cambios: [
          cambio(2, { accion: 'respuesta_correcta_corregida', partido_id: null, partido: '', antes: 'Francia', despues: 'Brasil' }),
          cambio(1, { accion: 'pregunta_creada', partido_id: null, partido: '', antes: '', despues: '¿Quién sale campeón?' }),
        ],
      },
    }));
    renderWithProviders(<OrganiserChanges />);
    const [corregida, creada] = within(await screen.findByRole('list')).getAllByRole('listitem');
    expect(corregida).toHaveTextContent('Corrigió la respuesta correcta · World Cup 2022');
    expect(corregida).toHaveTextContent('Francia → Brasil');
    expect(creada).toHaveTextContent('Creó la pregunta · World Cup 2022');
    expect(creada).toHaveTextContent('¿Quién sale campeón?');
  });

  it('says when there is nothing yet', async () => {
    fakeFetch(() => ({ status: 200, body: { pagina: 1, por_pagina: 10, total: 0, cambios: [] } }));
    renderWithProviders(<OrganiserChanges />);
    expect(await screen.findByText('Todavía no hubo cambios.')).toBeInTheDocument();
  });
});
