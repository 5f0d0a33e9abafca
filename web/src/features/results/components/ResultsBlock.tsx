import { Link } from 'react-router';
import { ResultsList } from './ResultsList';

const RECENT = 5;

/** The home's results block: the latest finished matches and one's points. */
export function ResultsBlock({ jugadorId }: { jugadorId: number }) {
  return (
    <section className="card block" aria-labelledby="resultados-inicio">
      <h2 id="resultados-inicio">Resultados</h2>
      <ResultsList jugadorId={jugadorId} limit={RECENT} />
      <p className="block__more">
        <Link to="/resultados">Ver todos los resultados</Link>
      </p>
    </section>
  );
}
