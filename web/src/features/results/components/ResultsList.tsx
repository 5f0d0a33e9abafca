import { QueryList } from '../../../shared/components/QueryList';
import { useResultados } from '../api/getResultados';
import { ResultCard } from './ResultCard';

interface Props {
  /** Undefined: the current tournament. */
  torneo?: number;
  jugadorId: number | null;
  /** Only the most recent ones (the home block). */
  limit?: number;
}

export function ResultsList({ torneo, jugadorId, limit }: Props) {
  const resultados = useResultados(torneo, jugadorId);
  return (
    <QueryList
      query={resultados}
      loadingText="Cargando los resultados…"
      emptyText="Todavía no terminó ningún partido."
      className="result-list"
      limit={limit}
    >
      {(p) => <ResultCard key={p.partido} partido={p} conJugada={jugadorId !== null} />}
    </QueryList>
  );
}
