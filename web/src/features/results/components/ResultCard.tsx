import './results.css';
import { Link } from 'react-router';
import { Flag } from '../../../shared/flags/Flag';
import { formatScore, localDate, localTime } from '../../../shared/format';
import type { ResultadoPartido } from '../api/getResultados';

interface Props {
  partido: ResultadoPartido;
  /** Signed in: show the player's prediction and the points it earned. */
  conJugada: boolean;
}

/** One finished match: teams, score (extra time and shoot-out when played) and one's own points. */
export function ResultCard({ partido, conJugada }: Props) {
  const r = partido.resultado;
  const alargue =
    r.goles_local_alargue !== null && r.goles_visitante_alargue !== null
      ? formatScore(r.goles_local_alargue, r.goles_visitante_alargue)
      : null;
  const penales =
    r.penales_local !== null && r.penales_visitante !== null
      ? formatScore(r.penales_local, r.penales_visitante)
      : null;
  return (
    <li className="result-card">
      <p className="card-meta">
        {partido.nombre_categoria} ·{' '}
        <time dateTime={partido.inicio}>
          {localDate(partido.inicio)} · {localTime(partido.inicio)}
        </time>
      </p>
      {/* The spaces keep the score a word of its own when read as text ("Argentina 1 - 2 Francia");
          the grid lays the three parts out apart and ignores them. */}
      <div className="result-card__score">
        <span className="team team--local">
          <Flag code={partido.bandera_local} />
          <span className="team__name">{partido.nombre_local}</span>
        </span>{' '}
        <strong className="result-card__goals">{formatScore(r.goles_local, r.goles_visitante)}</strong>{' '}
        <span className="team team--visitante">
          <span className="team__name">{partido.nombre_visitante}</span>
          <Flag code={partido.bandera_visitante} />
        </span>
      </div>
      {(alargue || penales) && (
        <p className="result-card__extra">
          {alargue && <>Alargue: {alargue}</>}
          {alargue && penales && ' · '}
          {penales && <>Penales: {penales}</>}
        </p>
      )}
      {conJugada && (
        <p className="result-card__mine">
          {partido.apuesta ? (
            <>
              Tu jugada: {formatScore(partido.apuesta.goles_local, partido.apuesta.goles_visitante)} ·{' '}
              <strong>{puntosText(partido.puntos ?? 0)}</strong>
            </>
          ) : (
            'No hiciste jugada para este partido.'
          )}
        </p>
      )}
      <p className="result-card__more">
        <Link to={`/partidos/${partido.partido}`}>
          Ver el partido{' '}
          <span className="visually-hidden">
            {partido.nombre_local} - {partido.nombre_visitante}
          </span>
        </Link>
      </p>
    </li>
  );
}

function puntosText(puntos: number): string {
  return puntos === 1 ? '1 punto' : `${puntos} puntos`;
}
