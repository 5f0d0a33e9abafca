import { render, screen, within } from '@testing-library/react';
import { MatchdayWinners } from './MatchdayWinners';

describe('MatchdayWinners', () => {
  it("names the matchday's winner and points, marking one's own name", () => {
    render(
      <MatchdayWinners
        fecha={{ fecha: '2022-11-22', partidos: 4, empatados: 1, ganadores: [{ id: 7, nombre: 'Ana', puntaje: 27 }] }}
        jugadorId={7}
      />,
    );
    const region = screen.getByRole('region', { name: 'Ganador de la fecha' });
    expect(region).toHaveTextContent('Fecha del 22/11/2022 · 4 partidos');
    expect(within(region).getByRole('listitem')).toHaveTextContent('AnaVos · 27 puntos');
  });

  it('says how many more share the best score when the server names only some of them', () => {
    const ganadores = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, nombre: `Jugador ${i + 1}`, puntaje: 10 }));
    render(<MatchdayWinners fecha={{ fecha: '2022-11-20', partidos: 1, empatados: 13, ganadores }} jugadorId={null} />);
    const region = screen.getByRole('region', { name: 'Ganadores de la fecha' });
    const items = within(region).getAllByRole('listitem');
    expect(items).toHaveLength(11);
    expect(items[10]).toHaveTextContent('y 3 jugadores más con 10 puntos');
  });

  it('says so when nobody scored that day', () => {
    render(<MatchdayWinners fecha={{ fecha: '2022-11-20', partidos: 1, empatados: 0, ganadores: [] }} jugadorId={null} />);
    expect(screen.getByRole('region', { name: 'Ganador de la fecha' })).toHaveTextContent('Nadie sumó puntos en esta fecha.');
  });
});
