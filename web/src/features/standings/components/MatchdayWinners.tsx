import './standings.css';
import { useId } from 'react';
import { formatFecha } from '../../../shared/format';
import type { FechaJugada } from '../api/getPosicionesFechas';

interface Props {
  fecha: FechaJugada;
  jugadorId: number | null;
}

const puntos = (n: number) => (n === 1 ? '1 punto' : `${n} puntos`);

/** "Ganador de la fecha": the matchday's best players (several when tied), with their points. */
export function MatchdayWinners({ fecha, jugadorId }: Props) {
  const id = useId();
  const { ganadores } = fecha;
  // The server names at most 10 of those tied; `empatados` counts them all.
  const empatados = Math.max(fecha.empatados, ganadores.length);
  const mas = empatados - ganadores.length;
  return (
    <section className="winners" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>{empatados > 1 ? 'Ganadores de la fecha' : 'Ganador de la fecha'}</h2>
      <p className="winners__fecha">
        Fecha del {formatFecha(fecha.fecha)} ·{' '}
        {fecha.partidos === 1 ? '1 partido' : `${fecha.partidos} partidos`}
      </p>
      {ganadores.length === 0 ? (
        <p className="empty">Nadie sumó puntos en esta fecha.</p>
      ) : (
        <ul className="winners__list">
          {ganadores.map((g) => (
            <li key={g.id}>
              {g.nombre}
              {g.id === jugadorId && <span className="badge">Vos</span>}{' '}
              <span className="winners__points">· {puntos(g.puntaje)}</span>
            </li>
          ))}
          {mas > 0 && (
            <li className="winners__more">
              y {mas === 1 ? 'otro jugador' : `${mas} jugadores más`} con{' '}
              {puntos(ganadores[0]?.puntaje ?? 0)}
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
