import { useId } from 'react';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { deleteGrupo } from '../api/deleteGrupo';
import { patchGrupo } from '../api/patchGrupo';
import type { Grupo } from '../api/types';
import { useLeagueMutation } from '../api/useLeagueMutation';
import { LeagueExit } from './LeagueExit';
import { LeagueNameForm } from './LeagueNameForm';

/** The owner's: rename the league, or delete it (after a question). */
export function OwnerSettings({ grupo }: { grupo: Grupo }) {
  const id = useId();
  const renombrar = useLeagueMutation((n: string) => patchGrupo(grupo.id, n));
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
      <LeagueExit
        label="Borrar grupo"
        question={`¿Borrar el grupo ${grupo.nombre}? Su tabla deja de existir para todos sus integrantes; sus puntos en el prode no cambian.`}
        confirmText="Sí, borrar el grupo"
        run={() => deleteGrupo(grupo.id)}
      />
    </section>
  );
}
