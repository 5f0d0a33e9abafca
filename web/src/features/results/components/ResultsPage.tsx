import { QueryView } from '../../../shared/components/QueryView';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { useSesion } from '../../session';
import { TournamentPicker, useTorneoParam } from '../../tournaments';
import { ResultsList } from './ResultsList';

/**
 * /resultados: every finished match of the current tournament, or of `?torneo=<id>` (the
 * "historial"); signed in, also one's prediction and points for each.
 */
export function ResultsPage() {
  usePageTitle('Resultados');
  const sesion = useSesion();
  const [torneo, setTorneo] = useTorneoParam();
  return (
    <section className="page" aria-labelledby="resultados-titulo">
      <h1 id="resultados-titulo">Resultados</h1>
      <TournamentPicker torneo={torneo} onChange={setTorneo} />
      {/* Waits for the session: signed in, the same list carries one's own points. */}
      <QueryView query={sesion}>{(jugador) => <ResultsList torneo={torneo} jugadorId={jugador?.id ?? null} />}</QueryView>
    </section>
  );
}
