import { Flag } from '../../../shared/flags/Flag';
import { formatScore, localDate, localTime } from '../../../shared/format';
import type { Partido } from '../api/getPartido';

/**
 * The match page's heading: stage, date and time above; the teams with their flags and, once
 * played, the score in the h1 (read as "Argentina 2 - 1 Francia"); extra time and shoot-out; and
 * where betting stands.
 */
export function MatchHeading({ partido }: { partido: Partido }) {
  const r = partido.resultado;
  return (
    <>
      <p className="card-meta">
        {partido.nombre_categoria} ·{' '}
        <time dateTime={partido.inicio}>
          {localDate(partido.inicio)} · {localTime(partido.inicio)}
        </time>
      </p>
      <h1 id="partido-titulo" className="match-heading">
        <span className="team team--local">
          <Flag code={partido.bandera_local} />
          <span className="team__name">{partido.nombre_local}</span>
        </span>{' '}
        <span className="match-heading__score">{r ? formatScore(r.goles_local, r.goles_visitante) : 'vs.'}</span>{' '}
        <span className="team team--visitante">
          <span className="team__name">{partido.nombre_visitante}</span>
          <Flag code={partido.bandera_visitante} />
        </span>
      </h1>
      {r && <ExtraTime resultado={r} />}
      <p className="match-status">{estado(partido)}</p>
    </>
  );
}

function ExtraTime({ resultado: r }: { resultado: NonNullable<Partido['resultado']> }) {
  const alargue =
    r.goles_local_alargue !== null && r.goles_visitante_alargue !== null
      ? `Alargue: ${formatScore(r.goles_local_alargue, r.goles_visitante_alargue)}`
      : null;
  const penales =
    r.penales_local !== null && r.penales_visitante !== null
      ? `Penales: ${formatScore(r.penales_local, r.penales_visitante)}`
      : null;
  if (!alargue && !penales) return null;
  return <p className="match-heading__extra">{[alargue, penales].filter(Boolean).join(' · ')}</p>;
}

/** Where the match and its betting stand, in the player's words. */
function estado(partido: Partido): string {
  if (partido.estado === 'finalizado') return 'Partido terminado.';
  if (partido.estado === 'suspendido') return 'Partido suspendido: por ahora no acepta jugadas.';
  if (partido.codigo_local === null || partido.codigo_visitante === null) {
    return 'Todavía no se conocen los equipos de este partido.';
  }
  const cuando = `el ${localDate(partido.cierre)} a las ${localTime(partido.cierre)}`;
  return partido.apostable
    ? `Las jugadas cierran ${cuando}, 1 hora antes del inicio.`
    : `Las jugadas cerraron ${cuando}.`;
}
