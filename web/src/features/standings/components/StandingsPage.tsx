import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryView } from '../../../shared/components/QueryView';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { useSesion } from '../../session/api/getSesion';
import { usePosiciones } from '../api/getPosiciones';
import { FindMe } from './FindMe';
import { Pagination } from './Pagination';
import { StandingsTable } from './StandingsTable';
import { TieBreakRule } from './TieBreakRule';

// The page size GET /api/posiciones/yo counts its `pagina` in.
const POR_PAGINA = 100;

/** /posiciones: the whole table, a page at a time, with the player's own row one click away. */
export function StandingsPage() {
  usePageTitle('Tabla de posiciones');
  const [params, setParams] = useSearchParams();
  const pagina = Math.max(1, Number(params.get('pagina')) || 1);
  const jugador = useSesion().data ?? null;
  const posiciones = usePosiciones(pagina, POR_PAGINA);
  const [scrollToMe, setScrollToMe] = useState(false);

  // Once the page holding the player is on screen, bring the row into view and focus it.
  const rows = posiciones.data;
  useEffect(() => {
    if (!scrollToMe || !rows || rows.pagina !== pagina) return;
    const row = document.getElementById('mi-posicion');
    if (!row) return;
    row.scrollIntoView?.({ block: 'center' });
    row.focus({ preventScroll: true });
    setScrollToMe(false);
  }, [scrollToMe, rows, pagina]);

  const goTo = (p: number) => setParams({ pagina: String(p) });

  return (
    <section className="page" aria-labelledby="tabla-titulo">
      <h1 id="tabla-titulo">Tabla de posiciones</h1>
      <TieBreakRule />
      {jugador && (
        <FindMe
          immediately={params.has('yo')}
          onFound={(mi) => {
            goTo(mi.pagina);
            setScrollToMe(true);
          }}
        />
      )}
      <QueryView query={posiciones} loadingText="Cargando la tabla…">
        {(data) => (
          <>
            <StandingsTable posiciones={data.posiciones} jugadorId={jugador?.id ?? null} />
            <Pagination
              pagina={data.pagina}
              totalPaginas={Math.max(1, Math.ceil(data.total / data.por_pagina))}
              onChange={goTo}
            />
          </>
        )}
      </QueryView>
    </section>
  );
}
