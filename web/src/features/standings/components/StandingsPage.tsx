import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { parseTorneo } from '../../../shared/api/torneo';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { PagedQueryView } from '../../../shared/components/Pagination';
import { formatFecha } from '../../../shared/format';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { useSesion } from '../../session';
import { TournamentPicker } from '../../tournaments';
import { usePosiciones } from '../api/getPosiciones';
import { usePosicionesFechas } from '../api/getPosicionesFechas';
import { Board } from './Board';
import { FindMe } from './FindMe';
import { MatchdaySelect } from './MatchdaySelect';
import { MatchdayWinners } from './MatchdayWinners';
import { PinnedStandingsTable } from './PinnedStandingsTable';
import { StandingsTable } from './StandingsTable';
import { TieBreakRule } from './TieBreakRule';

// The page size GET /api/posiciones/yo counts its `pagina` in.
const POR_PAGINA = 100;
const FECHA = /^\d{4}-\d{2}-\d{2}$/;

/**
 * /posiciones: the whole table, a page at a time, with the player's own row one click away; or
 * one matchday's table. `?torneo=<id>` shows another tournament (the "historial"), `?fecha=` a
 * matchday, `?pagina=` a page; `?yo` (the home's link) finds the player's row at once. Signed in,
 * the player's around-me board of the table shown comes first, and every row can be pinned.
 */
export function StandingsPage() {
  usePageTitle('Tabla de posiciones');
  const [params, setParams] = useSearchParams();
  const torneo = parseTorneo(params.get('torneo'));
  const fechaParam = params.get('fecha');
  const fecha = fechaParam !== null && FECHA.test(fechaParam) ? fechaParam : undefined;
  const pagina = Math.max(1, Number(params.get('pagina')) || 1);
  const jugador = useSesion().data ?? null;
  const posiciones = usePosiciones({ torneo, fecha, pagina, porPagina: POR_PAGINA });
  const fechas = usePosicionesFechas(torneo);
  // Each "Ver mi posición" that found the player asks for one scroll; a ref remembers the last
  // one done, so that doing it changes nothing on screen.
  const [scrollRequest, setScrollRequest] = useState(0);
  const scrolledFor = useRef(0);

  // Once the page holding the player is on screen, bring the row into view and focus it.
  const rows = posiciones.data;
  useEffect(() => {
    const done = scrolledFor.current === scrollRequest;
    if (done || !rows || rows.pagina !== pagina || posiciones.isPlaceholderData) return;
    const row = document.getElementById('mi-posicion');
    if (!row) return;
    row.scrollIntoView?.({ block: 'center' });
    row.focus({ preventScroll: true });
    scrolledFor.current = scrollRequest;
  }, [scrollRequest, rows, pagina, posiciones.isPlaceholderData]);

  /** Keeps the tournament and sets (or, with null, drops) the others; ?yo is used up. */
  const update = (changes: Record<string, string | null>) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      next.delete('yo');
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });
  const goTo = (p: number) => update({ pagina: String(p) });

  const listaFechas = fechas.data?.fechas ?? [];
  // The selected matchday's winners, or by default the latest matchday's.
  const ganadores = fecha === undefined ? listaFechas[0] : listaFechas.find((f) => f.fecha === fecha);

  return (
    <section className="page" aria-labelledby="tabla-titulo">
      <h1 id="tabla-titulo">Tabla de posiciones</h1>
      <TournamentPicker torneo={torneo} onChange={(id) => setParams({ torneo: String(id) })} />
      <TieBreakRule />
      {jugador && (
        <FindMe
          torneo={torneo}
          jugadorId={jugador.id}
          immediately={params.has('yo')}
          onFound={(mi) => {
            // /api/posiciones/yo places the player in the whole table.
            update({ fecha: null, pagina: String(mi.pagina) });
            setScrollRequest((n) => n + 1);
          }}
        />
      )}
      {fechas.isError && <ErrorMessage error={fechas.error} onRetry={() => void fechas.refetch()} compact />}
      {(listaFechas.length > 0 || fecha !== undefined) && (
        <div className="standings-filters">
          <MatchdaySelect
            fechas={listaFechas}
            value={fecha}
            onChange={(f) => update({ fecha: f ?? null, pagina: null })}
          />
        </div>
      )}
      {ganadores && <MatchdayWinners fecha={ganadores} jugadorId={jugador?.id ?? null} />}
      {fecha !== undefined && (
        <p className="matchday-note">
          Tabla de la fecha del {formatFecha(fecha)}: solo cuentan los puntos de los partidos de ese día.
        </p>
      )}
      {jugador && (
        <Board
          key={`${torneo ?? 'actual'}/${fecha ?? 'general'}`}
          tabla={{ torneo, fecha }}
          jugadorId={jugador.id}
          titulo={fecha === undefined ? 'Cerca tuyo' : 'Cerca tuyo en la fecha'}
          conBonus={fecha === undefined}
        />
      )}
      <PagedQueryView query={posiciones} loadingText="Cargando la tabla…" label="Páginas de la tabla" onChange={goTo}>
        {(data) =>
          jugador ? (
            <PinnedStandingsTable posiciones={data.posiciones} jugadorId={jugador.id} conBonus={fecha === undefined} />
          ) : (
            <StandingsTable posiciones={data.posiciones} jugadorId={null} conBonus={fecha === undefined} />
          )
        }
      </PagedQueryView>
    </section>
  );
}
