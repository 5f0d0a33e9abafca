import { formatScore } from '../../../shared/format';

export interface Fila {
  nombre: string;
  goles_local: number;
  goles_visitante: number;
  /** Once the match is played and scored. */
  puntos?: number;
  propia: boolean;
}

interface Props {
  /** Says what the table lists and which page it is, for everyone (screen readers announce it). */
  caption: string;
  filas: Fila[];
  conPuntos: boolean;
}

/** Everyone's predictions (and points), one page of them, the player's own row marked "Vos". */
export function PlayersTable({ caption, filas, conPuntos }: Props) {
  return (
    <div className="table-scroll">
      <table className="players-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Jugador</th>
            <th scope="col" className="players-table__score">
              Jugada
            </th>
            {conPuntos && (
              <th scope="col" className="players-table__points">
                Puntos
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {filas.map((f, i) => (
            // No ids: the answers name players, never identify them. Rows of a page keep their order.
            <tr key={`${i}-${f.nombre}`} className={f.propia ? 'is-own' : undefined} aria-current={f.propia ? 'true' : undefined}>
              <td className="players-table__name">
                {f.nombre}
                {f.propia && <span className="badge">Vos</span>}
              </td>
              <td className="players-table__score">{formatScore(f.goles_local, f.goles_visitante)}</td>
              {conPuntos && <td className="players-table__points">{f.puntos}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
