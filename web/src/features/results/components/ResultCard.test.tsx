import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render';
import type { ResultadoPartido } from '../api/getResultados';
import { ResultCard } from './ResultCard';

const partido: ResultadoPartido = {
  partido: 64,
  torneo: 1,
  nombre_local: 'Argentina',
  nombre_visitante: 'Francia',
  bandera_local: 'ar',
  bandera_visitante: 'fr',
  fecha: '2022-12-18',
  hora: '12:00',
  nombre_categoria: 'Final',
  inicio: '2022-12-18T15:00:00Z',
  resultado: {
    goles_local: 3,
    goles_visitante: 3,
    goles_local_alargue: null,
    goles_visitante_alargue: null,
    penales_local: null,
    penales_visitante: null,
  },
  apuesta: null,
  puntos: null,
};

describe('ResultCard', () => {
  it("links to the match's page, named for the match (every card has one)", () => {
    renderWithProviders(
      <ul>
        <ResultCard partido={partido} conJugada={false} />
      </ul>,
    );
    expect(screen.getByRole('link', { name: 'Ver el partido Argentina - Francia' })).toHaveAttribute('href', '/partidos/64');
  });
});
