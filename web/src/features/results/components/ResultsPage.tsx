import { QueryView } from '../../../shared/components/QueryView';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { useSesion } from '../../session/api/getSesion';
import { ResultsList } from './ResultsList';

/** /resultados: every finished match; signed in, also one's prediction and points for each. */
export function ResultsPage() {
  usePageTitle('Resultados');
  const sesion = useSesion();
  return (
    <section className="page" aria-labelledby="resultados-titulo">
      <h1 id="resultados-titulo">Resultados</h1>
      {/* Waits for the session: signed in, the same list carries one's own points. */}
      <QueryView query={sesion}>{(jugador) => <ResultsList jugadorId={jugador?.id ?? null} />}</QueryView>
    </section>
  );
}
