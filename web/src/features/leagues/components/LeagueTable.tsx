import { useId, useState, type ReactNode } from 'react';
import { PagedQueryView } from '../../../shared/components/Pagination';
import { usePosicionesGrupo } from '../api/getPosicionesGrupo';
import type { Grupo, PosicionGrupo } from '../api/types';

const POR_PAGINA = 100;

/** Draws a page of rows; the app passes the standings' own table, so both look and read alike. */
export type RenderTable = (posiciones: PosicionGrupo[]) => ReactNode;

/** The league's table, a page at a time, live like the main one. */
export function LeagueTable({ grupo, renderTable }: { grupo: Grupo; renderTable: RenderTable }) {
  const id = useId();
  const [pagina, setPagina] = useState(1);
  const posiciones = usePosicionesGrupo(grupo.torneo, grupo.id, pagina, POR_PAGINA);
  return (
    <section className="card league-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Tabla del grupo</h2>
      <PagedQueryView
        query={posiciones}
        loadingText="Cargando la tabla…"
        label="Páginas de la tabla del grupo"
        onChange={setPagina}
      >
        {(data) => renderTable(data.posiciones)}
      </PagedQueryView>
    </section>
  );
}
