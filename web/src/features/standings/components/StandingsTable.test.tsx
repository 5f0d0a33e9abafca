import { render, screen, within } from '@testing-library/react';
import { fakeFetch } from '../../../test/fakeFetch';
import { fakePosicion as fila } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { StandingsBlock } from './StandingsBlock';
import { StandingsTable } from './StandingsTable';

const posiciones = [fila(1, 10, 'Ana', 17, null, 5), fila(1, 11, 'Beto', 17), fila(3, 12, 'Carla', 5)];

describe('StandingsTable', () => {
  it("has the specification's columns and the bonus questions' part of the total, and fills the rank from `posicion`", () => {
    render(<StandingsTable posiciones={posiciones} jugadorId={null} />);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['#', 'Nombre de usuario', 'Bonus', 'Puntaje']);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual(['1', '1', '3']);
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', 'Ana', '5', '17']);
    expect(within(rows[2]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['3', 'Carla', '0', '5']);
  });

  it('leaves the Bonus column out of a matchday\'s table, and names the table as asked', () => {
    render(<StandingsTable posiciones={posiciones} jugadorId={null} conBonus={false} caption="Tabla del grupo" />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['#', 'Nombre de usuario', 'Puntaje']);
    expect(screen.getByRole('table', { name: 'Tabla del grupo' })).toBeInTheDocument();
  });

  it('has a caption, so a screen reader names the table', () => {
    render(<StandingsTable posiciones={posiciones} jugadorId={null} />);
    expect(screen.getByRole('table', { name: 'Tabla de posiciones' })).toBeInTheDocument();
  });

  it("highlights the signed-in player's row", () => {
    render(<StandingsTable posiciones={posiciones} jugadorId={11} />);
    const own = screen.getByRole('row', { current: true });
    expect(own).toHaveClass('is-own');
    expect(own).toHaveTextContent('Beto');
    expect(within(own).getByText('Vos')).toBeInTheDocument();
    const others = screen.getAllByRole('row').filter((r) => r !== own);
    others.forEach((r) => expect(r).not.toHaveClass('is-own'));
  });

  it('says so when nobody is in the table yet', () => {
    render(<StandingsTable posiciones={[]} jugadorId={null} />);
    expect(screen.getByText('Todavía no hay jugadores en la tabla.')).toBeInTheDocument();
  });
});

describe('StandingsBlock', () => {
  it('loads the first page from /api/posiciones and shows the tie-break rule', async () => {
    const { requests } = fakeFetch(() => ({
      status: 200,
      body: { pagina: 1, por_pagina: 10, total: 3, posiciones },
    }));
    renderWithProviders(<StandingsBlock jugadorId={12} />);
    expect(screen.getByRole('heading', { name: 'Tabla de posiciones' })).toBeInTheDocument();
    expect(screen.getByText(/resultados exactos/)).toBeInTheDocument();
    expect(await screen.findByRole('row', { current: true })).toHaveTextContent('Carla');
    expect(requests[0]?.path).toBe('/api/posiciones?pagina=1&por_pagina=10');
  });
});
