import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { deleteGrupo } from '../api/deleteGrupo';
import { patchGrupo } from '../api/patchGrupo';
import type { Grupo } from '../api/types';
import { useLeagueMutation } from '../api/useLeagueMutation';
import { Confirm } from './Confirm';
import { NOMBRE_MAX } from './CreateLeagueForm';

/** The owner's: rename the league, or delete it (after a question). */
export function OwnerSettings({ grupo }: { grupo: Grupo }) {
  const id = useId();
  const navigate = useNavigate();
  const [nombre, setNombre] = useState(grupo.nombre);
  const [asking, setAsking] = useState(false);
  const renombrar = useLeagueMutation((n: string) => patchGrupo(grupo.id, n));
  const borrar = useLeagueMutation(
    () => deleteGrupo(grupo.id),
    () => void navigate('/grupos', { replace: true }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = nombre.trim();
    if (n !== '') renombrar.mutate(n);
  };
  return (
    <section className="card league-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Administrar el grupo</h2>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-nombre`}>Nombre del grupo</label>
          <input
            id={`${id}-nombre`}
            value={nombre}
            maxLength={NOMBRE_MAX}
            required
            onChange={(e) => setNombre(e.target.value)}
          />
        </div>
        <button type="submit" className="button" disabled={renombrar.isPending || nombre.trim() === ''}>
          Cambiar nombre
        </button>
      </form>
      {renombrar.isSuccess && (
        <p className="league-feedback" role="status">
          Nombre cambiado.
        </p>
      )}
      {renombrar.isError && (
        <ErrorMessage error={renombrar.error} onRetry={() => renombrar.mutate(nombre.trim())} compact />
      )}
      <div className="league-danger">
        {asking ? (
          <Confirm
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
