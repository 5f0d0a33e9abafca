import { screen } from '@testing-library/react';
import { fakeResultadoPartido } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { ResultCard } from './ResultCard';

const partido = fakeResultadoPartido();

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
