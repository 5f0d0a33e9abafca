import { useParams } from 'react-router';
import { ApiError } from '../../../shared/api/ApiError';
import { QueryView } from '../../../shared/components/QueryView';
import { NotFound } from '../../../shared/layout/NotFound';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { SignInButton, useSesion } from '../../session';
import { usePartido, type Partido } from '../api/getPartido';
import { MatchHeading } from './MatchHeading';
import { MatchPredictions } from './MatchPredictions';
import './match.css';

/**
 * /partidos/:id, a match's page (reached from the results, the home and /jugadas): the match, the
 * player's own prediction, and, once betting closed, everyone's predictions, how they split and,
 * once played, who scored what. Loaded on demand: it is kept out of the initial JavaScript.
 */
export default function MatchPage() {
  const id = parseId(useParams().id);
  if (id === null) return <NotFound />;
  return <MatchScreen key={id} id={id} />;
}

function MatchScreen({ id }: { id: number }) {
  const partido = usePartido(id);
  usePageTitle(partido.data ? `${partido.data.nombre_local} - ${partido.data.nombre_visitante}` : 'Partido');
  if (partido.error instanceof ApiError && partido.error.status === 404) return <NotFound />;
  return (
    <section className="page match-page" aria-labelledby="partido-titulo">
      <QueryView query={partido} loadingText="Cargando el partido…">
        {(p) => <MatchBody partido={p} />}
      </QueryView>
    </section>
  );
}

function MatchBody({ partido }: { partido: Partido }) {
  const sesion = useSesion();
  return (
    <>
      <MatchHeading partido={partido} />
      <QueryView query={sesion}>
        {(jugador) =>
          jugador ? (
            <MatchPredictions partido={partido} jugadorId={jugador.id} />
          ) : (
            // Signed in here, the player stays on this match (as on an invitation's page).
            <div>
              <p className="match-note">Ingresá para ver tu jugada y, cuando cierran las apuestas, las de todos.</p>
              <SignInButton />
            </div>
          )
        }
      </QueryView>
    </>
  );
}

/** The path's id: a positive integer, or null (the not-found page). */
function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 ? id : null;
}
