import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderWithProviders } from '../../../test/render';
import type { Partido } from '../api/getPartidos';
import { ResultForm } from './ResultForm';

const partido: Partido = {
  id: 64,
  torneo: 'Mundial 2022',
  torneo_id: 1,
  numero: 64,
  estado: 'programado',
  apostable: false,
  codigo_local: 'ARG',
  codigo_visitante: 'FRA',
  nombre_local: 'Argentina',
  nombre_visitante: 'Francia',
  bandera_local: 'ar',
  bandera_visitante: 'fr',
  fecha: '2022-12-18',
  hora: '12:00',
  nombre_categoria: 'Final',
  inicio: '2022-12-18T15:00:00Z',
  cierre: '2022-12-18T14:00:00Z',
  sede: 'Lusail',
  resultado: null,
};

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
});
