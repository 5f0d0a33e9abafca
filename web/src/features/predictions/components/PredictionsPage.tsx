import { Link } from 'react-router';
import { QueryView } from '../../../shared/components/QueryView';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import type { Jugador } from '../../session';
import { TournamentSubtitle } from '../../tournaments';
import { useApuestas } from '../api/getApuestas';
import { usePartidosSinJugar } from '../api/getPartidosSinJugar';
import { useFeedbackByMatch } from '../save/saveFeedback';
import { MatchdayList } from './MatchdayList';
import { WarningBanner } from './WarningBanner';

/** /jugadas: the current tournament's matches still to be played, each saved on its own. */
export function PredictionsPage({ jugador }: { jugador: Jugador }) {
  usePageTitle('Tus jugadas');
  const partidos = usePartidosSinJugar();
  const apuestas = useApuestas(jugador.email);
  // Here, above the lists: a reload of either list must not take a card's message away.
  const feedback = useFeedbackByMatch();
  return (
    <section className="page predictions" aria-labelledby="jugadas-titulo">
      <WarningBanner />
      <Link className="button button--secondary predictions__back" to="/">
        Volver
      </Link>
      <h1 id="jugadas-titulo">Tus jugadas</h1>
      <TournamentSubtitle />
      <p className="help-text">
        Si ya hiciste una jugada, la vas a ver entre paréntesis. Podés cambiar el resultado todas las
        veces que quieras: guardá cada partido de a uno con su botón Guardar.
      </p>
      <QueryView query={partidos} loadingText="Cargando los partidos…">
        {(lista) => (
          <QueryView query={apuestas} loadingText="Cargando tus jugadas…">
            {(mias) => <MatchdayList partidos={lista} apuestas={mias} email={jugador.email} feedback={feedback} />}
          </QueryView>
        )}
      </QueryView>
    </section>
  );
}
