import './standings.css';
import type { Posicion } from '../api/getPosiciones';

interface Props {
  posiciones: Posicion[];
  /** The signed-in player's id, whose row is highlighted; null when signed out. */
  jugadorId: number | null;
}

/** The specification's dark striped table: '#', 'Nombre de usuario', 'Puntaje'; the rank is filled. */
export function StandingsTable({ posiciones, jugadorId }: Props) {
  if (posiciones.length === 0) {
    return <p className="empty">Todavía no hay jugadores en la tabla.</p>;
  }
  return (
    <div className="table-scroll">
      <table className="standings-table">
        <thead>
          <tr>
            <th scope="col" className="standings-table__rank">
              #
            </th>
            <th scope="col">Nombre de usuario</th>
            <th scope="col" className="standings-table__points">
              Puntaje
            </th>
          </tr>
        </thead>
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
                <td className="standings-table__points">{p.puntaje}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
