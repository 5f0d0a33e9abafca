import { Link } from 'react-router';
import { usePageTitle } from '../../shared/layout/usePageTitle';
import { OpenQuestionsLink } from '../../features/bonus';
import { MyLeaguesBlock } from '../../features/leagues';
import { WarningBanner } from '../../features/predictions';
import { ResultsBlock } from '../../features/results';
import { SignOutButton, type Jugador } from '../../features/session';
import { Board, StandingsBlock } from '../../features/standings';
import { TournamentSubtitle } from '../../features/tournaments';
import { Rules } from './Rules';
import './home.css';

/**
 * Signed in at /: greeting, the current tournament, the way to /jugadas with its cut-off warning,
 * a link to the bonus questions while one is open, the rules, and the around-me board (the top,
 * one's neighbours, the last and one's pinned friends), the standings, results and one's leagues side by side (standings and results follow new results live). The way
 * to /jugadas comes before the rules, so a phone shows it without scrolling: the rules are read
 * once, the predictions are made every matchday.
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
      <WarningBanner />
      <Link className="button button--big" to="/jugadas">
        Hacé tus jugadas
      </Link>
      <OpenQuestionsLink />
      <Rules />
      <div className="home__blocks">
        <Board tabla={{}} jugadorId={jugador.id} />
        <StandingsBlock jugadorId={jugador.id} />
        <ResultsBlock jugadorId={jugador.id} />
        <MyLeaguesBlock />
      </div>
    </div>
  );
}
