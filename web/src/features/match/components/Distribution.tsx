import { formatScore } from '../../../shared/format';
import type { Distribucion } from '../api/getResumenApuestas';
import { cantidad, porcentaje } from './plural';

interface Props {
  distribucion: Distribucion;
  local: string;
  visitante: string;
}

/**
 * How everyone predicted the match: home win, draw, away win, each as a bar and as text ("Gana
 * Argentina: 6 jugadas, 50 %"), and the most predicted scores. The bars are decoration for the
 * eye (hidden from screen readers); the numbers are the content.
 */
export function Distribution({ distribucion: d, local, visitante }: Props) {
  return (
    <section className="match-block" aria-labelledby="distribucion-titulo">
      <h2 id="distribucion-titulo">Cómo jugaron todos</h2>
      {d.total === 0 ? (
        <p className="empty">Nadie hizo jugadas para este partido.</p>
      ) : (
        <>
          <p>{cantidad(d.total, 'jugada', 'jugadas')} en total.</p>
          <ul className="distribution">
            <Outcome label={`Gana ${local}`} n={d.local} total={d.total} />
            <Outcome label="Empate" n={d.empate} total={d.total} />
            <Outcome label={`Gana ${visitante}`} n={d.visitante} total={d.total} />
          </ul>
          <h3>Los resultados más jugados</h3>
          <ol className="top-scores">
            {d.marcadores.map((m) => (
              <li key={`${m.goles_local}-${m.goles_visitante}`}>
                <strong className="top-scores__score">{formatScore(m.goles_local, m.goles_visitante)}</strong>{' '}
                <span>
                  {cantidad(m.jugadores, 'jugada', 'jugadas')} ({porcentaje(m.jugadores, d.total)} %)
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function Outcome({ label, n, total }: { label: string; n: number; total: number }) {
  const pct = porcentaje(n, total);
  return (
    <li className="distribution__row">
      <span className="distribution__label">{label}:</span>{' '}
      <span className="distribution__value">
        {cantidad(n, 'jugada', 'jugadas')}, {pct} %
      </span>
      <span className="distribution__bar" aria-hidden="true">
        <span className="distribution__fill" style={{ width: `${pct}%` }} />
      </span>
    </li>
  );
}
