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

  it("says when the match was played in the device's clock, like every other screen", () => {
    renderWithProviders(
      <ul>
        <ResultCard partido={partido} conJugada={false} />
      </ul>,
    );
    // UTC in these tests; the fixture's hora (12:00) is Argentina's.
    expect(screen.getByText('18/12/2022 · 15:00')).toHaveAttribute('dateTime', '2022-12-18T15:00:00Z');
  });
});
