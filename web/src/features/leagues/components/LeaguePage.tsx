import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { isFinalRefusal } from '../../../shared/api/ApiError';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import type { Jugador } from '../../session';
import { useGrupo } from '../api/getGrupo';
import type { Grupo } from '../api/types';
import { InvitePanel } from './InvitePanel';
import { LeagueTable, type RenderTable } from './LeagueTable';
import { LeaveLeague } from './LeaveLeague';
import { MemberList } from './MemberList';
import { OwnerSettings } from './OwnerSettings';
import { integrantes } from './plural';
import './leagues.css';

interface Props {
  jugador: Jugador;
  renderTable: RenderTable;
  /** The player's around-me board of the league's table (the app passes the standings' own). */
  renderBoard?: (grupo: Grupo) => ReactNode;
}

/**
 * /grupos/:id: the league's table (live, paged), its members, and, for its owner, the invite
 * link, renaming, removing members and deleting it; any other member may leave.
 */
export function LeaguePage({ jugador, renderTable, renderBoard }: Props) {
  const params = useParams();
  const id = Number(params.id);
  const grupo = useGrupo(id);
  usePageTitle(grupo.data?.nombre ?? 'Grupo');
  if (grupo.isPending) {
    return (
      <p className="loading" role="status">
        Cargando el grupo…
      </p>
    );
  }
  if (grupo.isError) {
    return (
      <section className="page" aria-labelledby="grupo-titulo">
        <h1 id="grupo-titulo">Grupo</h1>
        {isFinalRefusal(grupo.error) ? (
          <p className="error-message" role="alert">
            {grupo.error.message}
          </p>
        ) : (
          <ErrorMessage error={grupo.error} onRetry={() => void grupo.refetch()} />
        )}
        <p>
          <Link to="/grupos">Ver mis grupos</Link>
        </p>
      </section>
    );
  }
  const g = grupo.data;
  return (
    <section className="page league" aria-labelledby="grupo-titulo">
      <h1 id="grupo-titulo">{g.nombre}</h1>
      <p className="league__meta">
        Grupo de {g.dueno.nombre} · {integrantes(g.miembros)} · <Link to="/grupos">Mis grupos</Link>
      </p>
      {renderBoard?.(g)}
      <LeagueTable grupo={g} renderTable={renderTable} />
      {g.es_dueno && <InvitePanel grupo={g} />}
      <MemberList grupo={g} jugadorId={jugador.id} />
      {g.es_dueno ? <OwnerSettings key={g.nombre} grupo={g} /> : <LeaveLeague grupo={g} jugadorId={jugador.id} />}
    </section>
  );
}
