import { Link } from 'react-router';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import type { Jugador } from '../../session/api/getSesion';
import { SignOutButton } from '../../session/components/SignOutButton';
import { ResultsBlock } from '../../results/components/ResultsBlock';
import { StandingsBlock } from '../../standings/components/StandingsBlock';
import { TournamentSubtitle } from '../../tournaments/components/TournamentSubtitle';
import { Rules } from './Rules';
import { WarningBanner } from './WarningBanner';
import './home.css';

/**
 * Signed in at /: greeting, the current tournament, rules, the way to /jugadas, and its standings
 * and results side by side (both follow new results live).
 */
export function Home({ jugador }: { jugador: Jugador }) {
  usePageTitle('Inicio');
  return (
    <div className="home">
      <div className="home__greeting">
        <h1>Hola {jugador.nombre}</h1>
        <SignOutButton />
      </div>
      <TournamentSubtitle prefix="Torneo: " />
      <Rules />
      <WarningBanner />
      <Link className="button button--big" to="/jugadas">
        Hacé tus jugadas
      </Link>
      <div className="home__blocks">
        <StandingsBlock jugadorId={jugador.id} />
        <ResultsBlock jugadorId={jugador.id} />
      </div>
    </div>
  );
}
