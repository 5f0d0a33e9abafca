import { Link } from 'react-router';
import { QueryView } from '../../../shared/components/QueryView';
import { usePosiciones } from '../api/getPosiciones';
import { PinnedStandingsTable } from './PinnedStandingsTable';
import { TieBreakRule } from './TieBreakRule';

const TOP_ROWS = 10;

/** The home's standings block: the top of the table (a pin button on each row), with the way to the whole table and one's own row. */
export function StandingsBlock({ jugadorId }: { jugadorId: number }) {
  // The current tournament's table (no ?torneo): what players are playing now.
  const posiciones = usePosiciones({ pagina: 1, porPagina: TOP_ROWS });
  return (
    <section className="card block" aria-labelledby="tabla-inicio">
      <h2 id="tabla-inicio">Tabla de posiciones</h2>
      <TieBreakRule />
      <QueryView query={posiciones} loadingText="Cargando la tabla…">
        {(data) => <PinnedStandingsTable posiciones={data.posiciones} jugadorId={jugadorId} />}
      </QueryView>
      <p className="block__more">
        <Link to="/posiciones">Ver la tabla completa</Link>
        <Link to="/posiciones?yo">Ver mi posición</Link>
      </p>
    </section>
  );
}
