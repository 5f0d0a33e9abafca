import { useState } from 'react';
import { QueryView } from '../../../shared/components/QueryView';
import { usePuntosDePartido, type PaginaDePuntos } from '../api/getPuntosDePartido';
import { Pagination, totalPaginas } from '../../../shared/components/Pagination';
import { PlayersTable } from './PlayersTable';
import { cantidad } from './plural';

interface Props {
  torneo: number;
  partido: number;
  jugadorId: number;
}

/**
 * A played match that someone predicted: who scored what. How many scored each number of points, which also filters the
 * list ("10 puntos (3)"), the player's own points, and everyone's prediction and points by name.
 */
export function PointsList({ torneo, partido, jugadorId }: Props) {
  const [pagina, setPagina] = useState(1);
  const [puntos, setPuntos] = useState<number | undefined>(undefined);
  const query = usePuntosDePartido(torneo, partido, pagina, puntos, jugadorId);
  const filtrar = (p: number | undefined) => {
    setPuntos(p);
    setPagina(1);
  };
  return (
    <section className="match-block" aria-labelledby="puntos-titulo">
      <h2 id="puntos-titulo">Quién sumó qué</h2>
      <QueryView query={query} loadingText="Cargando los puntos…">
        {(page) => {
          if (page.por_puntos.length === 0) {
            return (
              <p className="loading" role="status">
                Estamos calculando los puntos…
              </p>
            );
          }
          const paginas = totalPaginas(page);
          return (
            <>
              <p className="match-own-points">
                {page.tus_puntos === null
                  ? 'No hiciste jugada para este partido.'
                  : `Sumaste ${cantidad(page.tus_puntos, 'punto', 'puntos')} en este partido.`}
              </p>
              <PointsFilter page={page} puntos={puntos} onChange={filtrar} />
              <PlayersTable
                caption={`${page.filtro === undefined ? 'Jugadas y puntos de todos' : `Quienes sumaron ${cantidad(page.filtro, 'punto', 'puntos')}`}, por nombre (página ${page.pagina} de ${paginas})`}
                filas={page.jugadores}
                conPuntos
              />
              <Pagination label="Páginas de la lista de jugadas" pagina={page.pagina} totalPaginas={paginas} onChange={setPagina} />
            </>
          );
        }}
      </QueryView>
    </section>
  );
}

interface FilterProps {
  page: PaginaDePuntos;
  puntos: number | undefined;
  onChange: (puntos: number | undefined) => void;
}

/** How many scored each number of points, as toggle buttons that filter the list. */
function PointsFilter({ page, puntos, onChange }: FilterProps) {
  const todos = page.por_puntos.reduce((sum, p) => sum + p.jugadores, 0);
  return (
    <div className="points-filter" role="group" aria-label="Mostrar en la lista">
      <button type="button" className="chip" aria-pressed={puntos === undefined} onClick={() => onChange(undefined)}>
        Todos ({todos.toLocaleString('es-AR')})
      </button>
      {page.por_puntos.map((p) => (
        <button
          key={p.puntos}
          type="button"
          className="chip"
          aria-pressed={puntos === p.puntos}
          onClick={() => onChange(p.puntos)}
        >
          {cantidad(p.puntos, 'punto', 'puntos')} ({p.jugadores.toLocaleString('es-AR')})
        </button>
      ))}
    </div>
  );
}
