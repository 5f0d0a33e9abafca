import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { deleteGrupo } from '../api/deleteGrupo';
import { patchGrupo } from '../api/patchGrupo';
import type { Grupo } from '../api/types';
import { useLeagueMutation } from '../api/useLeagueMutation';
import { ConfirmStep } from '../../../shared/components/ConfirmStep';
import { LeagueNameForm } from './LeagueNameForm';

/** The owner's: rename the league, or delete it (after a question). */
export function OwnerSettings({ grupo }: { grupo: Grupo }) {
  const id = useId();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const renombrar = useLeagueMutation((n: string) => patchGrupo(grupo.id, n));
  const borrar = useLeagueMutation(
    () => deleteGrupo(grupo.id),
    () => void navigate('/grupos', { replace: true }),
  );
  return (
    <section className="card league-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Administrar el grupo</h2>
      <LeagueNameForm
        initial={grupo.nombre}
        submitText="Cambiar nombre"
        pending={renombrar.isPending}
        onSubmit={(n) => renombrar.mutate(n)}
      />
      {renombrar.isSuccess && (
        <p className="league-feedback" role="status">
          Nombre cambiado.
        </p>
      )}
      {renombrar.isError && (
        <ErrorMessage error={renombrar.error} onRetry={() => renombrar.mutate(renombrar.variables ?? grupo.nombre)} compact />
      )}
      <div className="league-danger">
        {asking ? (
          <ConfirmStep
            danger
            question={`¿Borrar el grupo ${grupo.nombre}? Su tabla deja de existir para todos sus integrantes; sus puntos en el prode no cambian.`}
            confirmText="Sí, borrar el grupo"
            onConfirm={() => {
              setAsking(false);
              borrar.mutate(undefined);
            }}
            onCancel={() => setAsking(false)}
          />
        ) : (
          <button type="button" className="button button--danger" disabled={borrar.isPending} onClick={() => setAsking(true)}>
            Borrar grupo
          </button>
        )}
        {borrar.isError && <ErrorMessage error={borrar.error} onRetry={() => borrar.mutate(undefined)} compact />}
      </div>
    </section>
  );
}
