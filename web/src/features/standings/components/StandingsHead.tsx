interface Props {
  /** The "Bonus" column. */
  conBonus: boolean;
  /** The movement column (▲ ▼ =). */
  conMovimiento?: boolean;
  /** The pin buttons' column. */
  conPin: boolean;
}

/** The head of the standings' tables, the full table's and the board's: the same columns in the same order. */
export function StandingsHead({ conBonus, conMovimiento = false, conPin }: Props) {
  return (
    <thead>
      <tr>
        <th scope="col" className="standings-table__rank">
          #
        </th>
        <th scope="col">Nombre de usuario</th>
        {conBonus && (
          <th scope="col" className="standings-table__bonus">
            Bonus
          </th>
        )}
        <th scope="col" className="standings-table__points">
          Puntaje
        </th>
        {conMovimiento && (
          <th scope="col" className="standings-table__move">
            <span aria-hidden="true">±</span>
            <span className="visually-hidden">Movimiento desde la fecha anterior</span>
          </th>
        )}
        {conPin && (
          <th scope="col" className="standings-table__pin">
            <span className="visually-hidden">Fijar</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
