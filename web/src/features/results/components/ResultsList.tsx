import { QueryView } from '../../../shared/components/QueryView';
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
    <QueryView query={resultados} loadingText="Cargando los resultados…">
      {(partidos) =>
        partidos.length === 0 ? (
          <p className="empty">Todavía no terminó ningún partido.</p>
        ) : (
          <ul className="result-list">
            {partidos.slice(0, limit).map((p) => (
              <ResultCard key={p.partido} partido={p} conJugada={jugadorId !== null} />
            ))}
          </ul>
        )
      }
    </QueryView>
  );
}
