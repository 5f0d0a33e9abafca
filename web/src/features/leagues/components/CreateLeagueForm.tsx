import { useId } from 'react';
import { useNavigate } from 'react-router';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { postGrupo } from '../api/postGrupo';
import { useLeagueMutation } from '../api/useLeagueMutation';
import { LeagueNameForm } from './LeagueNameForm';

/** "Crear grupo": a name, then the new league's page, where its invite link is. */
export function CreateLeagueForm({ torneo }: { torneo: number | undefined }) {
  const id = useId();
  const navigate = useNavigate();
  const crear = useLeagueMutation(
    (n: string) => postGrupo(n, torneo),
    (grupo) => void navigate(`/grupos/${grupo.id}`),
  );
  return (
    <section className="card league-create" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Crear grupo</h2>
      <p>Jugá con tu familia, tus amigos o tu oficina en una tabla propia; los puntos son los mismos del prode.</p>
      <LeagueNameForm submitText="Crear grupo" pending={crear.isPending} onSubmit={(n) => crear.mutate(n)} />
      {crear.isError && <ErrorMessage error={crear.error} onRetry={() => crear.mutate(crear.variables ?? '')} compact />}
    </section>
  );
}
