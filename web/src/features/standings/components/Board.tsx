import { useId, useState } from 'react';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { useFijar } from '../api/fijados';
import { FILAS_MAS, useFilas, useTablero, type FilaTabla, type FilaTablero, type TablaDelTablero } from '../api/tablero';
import { PinButton } from './PinButton';
import { StandingsHead } from './StandingsHead';
import './board.css';

interface Props {
  tabla: TablaDelTablero;
  jugadorId: number;
  /** The heading; the tables' pages name the board after their table. */
  titulo?: string;
  /** The "Bonus" column, as the table it is of (not in a matchday's). */
  conBonus?: boolean;
}

type Row = FilaTabla & { motivos?: FilaTablero['motivos'] };

/** What each reason reads as beside a name ("yo" is the highlighted row and its "Vos"). */
const ETIQUETAS: Partial<Record<FilaTablero['motivos'][number], string>> = { fijado: 'Fijado', ultimo: 'Último' };

/**
 * The around-me board (GET .../tablero): the top 3, the player, the players just above and
 * below, the last place and the pinned players, in the table's order. Where two rows are not
 * next to each other a gap row says so ("…") and opens 10 more rows below the upper one or above
 * the lower one ("Ver 10 más", GET .../filas at the board's version). Live like the tables.
 */
export function Board({ tabla, jugadorId, titulo = 'Cerca tuyo', conBonus = true }: Props) {
  const id = useId();
  const tablero = useTablero(tabla);
  const fijar = useFijar();
  const [desdes, setDesdes] = useState<number[]>([]);
  const rangos = useFilas(tabla, desdes, tablero.data?.version);
  const abrir = (desde: number) => setDesdes((prev) => (prev.includes(desde) ? prev : [...prev, desde]));

  const filas = new Map<number, Row>();
  for (const r of rangos) for (const f of r.data?.filas ?? []) filas.set(f.fila, f);
  for (const f of tablero.data?.filas ?? []) filas.set(f.fila, f);
  const rows = [...filas.values()].sort((a, b) => a.fila - b.fila);
  const cargando = rangos.some((r) => r.isFetching && !r.data);

  return (
    <section className="card board" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>{titulo}</h2>
      {tablero.isPending && (
        <p className="loading" role="status">
          Cargando el tablero…
        </p>
      )}
      {tablero.isError && <ErrorMessage error={tablero.error} onRetry={() => void tablero.refetch()} compact />}
      {fijar?.error && (
        <p className="error-message" role="alert">
          {fijar.error.message}
        </p>
      )}
      {tablero.data && rows.length === 0 && <p className="empty">Todavía no hay jugadores en la tabla.</p>}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="standings-table board__table">
            <caption className="visually-hidden">{titulo}</caption>
            <StandingsHead conBonus={conBonus} conPin />
            <tbody>
              {rows.map((r, i) => {
                const previa = rows[i - 1];
                const own = r.id === jugadorId;
                // The board's own word until the pins are read: a pinned row never shows unpinned.
                const pinned = fijar?.known ? fijar.fijados.has(r.id) : (r.motivos?.includes('fijado') ?? false);
                const etiquetas = (r.motivos ?? []).flatMap((m) => ETIQUETAS[m] ?? []);
                return [
                  previa && r.fila > previa.fila + 1 && (
                    <Gap
                      key={`gap-${r.fila}`}
                      arriba={previa.fila}
                      abajo={r.fila}
                      columnas={conBonus ? 5 : 4}
                      cargando={cargando}
                      abrir={abrir}
                    />
                  ),
                  <tr
                    key={r.fila}
                    className={[i % 2 === 0 && 'is-striped', own && 'is-own', pinned && !own && 'is-pinned'].filter(Boolean).join(' ') || undefined}
                    aria-current={own ? 'true' : undefined}
                  >
                    <td className="standings-table__rank">{r.posicion}</td>
                    <td className="standings-table__name">
                      {r.nombre}
                      {own && <span className="badge">Vos</span>}
                      {etiquetas
                        .filter((e) => e !== 'Fijado' || !own)
                        .map((e) => (
                          <span key={e} className="badge badge--muted">
                            {e}
                          </span>
                        ))}
                    </td>
                    {conBonus && <td className="standings-table__bonus">{r.bonus}</td>}
                    <td className="standings-table__points">{r.puntaje}</td>
                    <td className="standings-table__pin">
                      {fijar && !own && <PinButton jugador={r.id} nombre={r.nombre} fijar={fijar} pinned={pinned} />}
                    </td>
                  </tr>,
                ];
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The rows between two rows of the board that are not next to each other: "…" and the way to see them. */
function Gap(props: { arriba: number; abajo: number; columnas: number; cargando: boolean; abrir: (desde: number) => void }) {
  const { arriba, abajo, columnas, cargando, abrir } = props;
  const faltan = abajo - arriba - 1;
  return (
    <tr className="board__gap">
      <td colSpan={columnas}>
        <span aria-hidden="true">…</span>
        <span className="visually-hidden">
          {faltan === 1 ? 'Falta 1 fila' : `Faltan ${faltan} filas`} entre el puesto de la fila {arriba} y el de la fila {abajo}.
        </span>
        <button
          type="button"
          className="link-button"
          disabled={cargando}
          aria-label={`Ver ${FILAS_MAS} más debajo de la fila ${arriba}`}
          onClick={() => abrir(arriba + 1)}
        >
          Ver {FILAS_MAS} más<span aria-hidden="true"> ↓</span>
        </button>
        {faltan > FILAS_MAS && (
          <button
            type="button"
            className="link-button"
            disabled={cargando}
            aria-label={`Ver ${FILAS_MAS} más arriba de la fila ${abajo}`}
            onClick={() => abrir(abajo - FILAS_MAS)}
          >
            Ver {FILAS_MAS} más<span aria-hidden="true"> ↑</span>
          </button>
        )}
      </td>
    </tr>
  );
}
