import './standings.css';
import type { Fijar } from '../api/fijados';
import type { Posicion } from '../api/getPosiciones';
import { PinButton } from './PinButton';
import { StandingsHead } from './StandingsHead';
import { movimiento } from './movement';

interface Props {
  /** The main table's rows, or a league's (the same shape, ranked within the league). */
  posiciones: Posicion[];
  /** The signed-in player's id, whose row is highlighted; null when signed out. */
  jugadorId: number | null;
  /** The "Bonus" column (the bonus questions' points, part of the total); not in a matchday's table. */
  conBonus?: boolean;
  /** The caption screen readers name the table by. */
  caption?: string;
  /** The signed-in player's pins: a pin button on every other row; undefined signed out. */
  fijar?: Fijar;
}

/**
 * The specification's dark striped table: '#', 'Nombre de usuario', 'Bonus', 'Puntaje'; the rank
 * is filled. 'Bonus' is the part of 'Puntaje' won with the bonus questions.
 * When the table knows where players stood at the end of the previous matchday, a last column
 * shows their movement (▲ ▼ =); a matchday's own table, or the first matchday, has none.
 * Signed in, every other player's row has a pin button (the board shows the pinned players).
 */
export function StandingsTable({
  posiciones,
  jugadorId,
  conBonus = true,
  caption = 'Tabla de posiciones',
  fijar,
}: Props) {
  if (posiciones.length === 0) {
    return <p className="empty">Todavía no hay jugadores en la tabla.</p>;
  }
  const conMovimiento = posiciones.some((p) => p.posicion_anterior !== null && p.posicion_anterior !== undefined);
  return (
    <div className="table-scroll">
      <table className="standings-table">
        {/* Named for screen readers' table lists; the heading above already says it on screen. */}
        <caption className="visually-hidden">{caption}</caption>
        <StandingsHead conBonus={conBonus} conMovimiento={conMovimiento} conPin={fijar !== undefined} />
        <tbody>
          {posiciones.map((p) => {
            const own = p.id === jugadorId;
            return (
              <tr
                key={p.id}
                id={own ? 'mi-posicion' : undefined}
                className={own ? 'is-own' : undefined}
                aria-current={own ? 'true' : undefined}
                tabIndex={own ? -1 : undefined}
              >
                <td className="standings-table__rank">{p.posicion}</td>
                <td className="standings-table__name">
                  {p.nombre}
                  {own && <span className="badge">Vos</span>}
                </td>
                {conBonus && <td className="standings-table__bonus">{p.bonus}</td>}
                <td className="standings-table__points">{p.puntaje}</td>
                {conMovimiento && (
                  <td className="standings-table__move">
                    <MovementMark posicion={p.posicion} anterior={p.posicion_anterior} />
                  </td>
                )}
                {fijar && (
                  <td className="standings-table__pin">
                    {!own && <PinButton jugador={p.id} nombre={p.nombre} fijar={fijar} />}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** ▲ 2, ▼ 1 or =, named for screen readers ("Subió 2 puestos"); nothing for a new player. */
function MovementMark({ posicion, anterior }: { posicion: number; anterior: number | null | undefined }) {
  const m = movimiento(posicion, anterior);
  if (!m) return null;
  const kind = m.simbolo === '▲' ? 'up' : m.simbolo === '▼' ? 'down' : 'same';
  return (
    <span className={`movement movement--${kind}`} role="img" aria-label={m.texto} title={m.texto}>
      {m.puestos > 0 ? `${m.simbolo} ${m.puestos}` : m.simbolo}
    </span>
  );
}
