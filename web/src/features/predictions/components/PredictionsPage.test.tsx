import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderWithProviders } from '../../../test/render';
import type { Apuesta } from '../api/getApuestas';
import { PredictionsPage } from './PredictionsPage';

const jugador = { id: 5, nombre: 'Ana', email: 'ana@prode.test', admin: false };
const partido = {
  id: 1,
  apostable: true,
  nombre_local: 'Qatar',
  nombre_visitante: 'Ecuador',
  bandera_local: 'qa',
  bandera_visitante: 'ec',
  fecha: '2022-11-20',
  hora: '13:00',
  nombre_categoria: 'Grupo A',
  inicio: '2099-11-20T16:00:00Z',
  cierre: '2099-11-20T15:00:00Z',
};

describe('PredictionsPage', () => {
  it('shows the screen texts and reloads the predictions after a save', async () => {
    let saved: Apuesta[] = [];
    const { requests } = fakeFetch((r) => {
      if (r.method === 'GET' && r.path === '/api/partidos-sin-jugar') return { status: 200, body: [partido] };
      if (r.method === 'GET' && r.path === '/api/jugadores/ana@prode.test/apuestas') return { status: 200, body: saved };
      if (r.method === 'POST') {
        saved = [{ id: 9, partido: 1, goles_local: 3, goles_visitante: 0, jugador: jugador.email }];
        return { status: 201, body: saved[0] };
      }
      return undefined;
    });
    renderWithProviders(<PredictionsPage jugador={jugador} />, { route: '/jugadas' });

    expect(screen.getByRole('heading', { name: 'Tus jugadas' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Volver' })).toHaveAttribute('href', '/');
    expect(screen.getByText(/entre paréntesis/)).toBeInTheDocument();
    expect(await screen.findByText('Sin jugada')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Goles de Qatar'), '3');
    await userEvent.type(screen.getByLabelText('Goles de Ecuador'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('(3 - 0)')).toBeInTheDocument();
    const apuestasLoads = requests.filter((r) => r.path.endsWith('/apuestas') && r.method === 'GET');
    expect(apuestasLoads).toHaveLength(2);
  });
});
