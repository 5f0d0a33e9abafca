import type { Partido } from '../api/getPartidos';
import { putEstado, type Estado } from '../api/putEstado';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { MutationFeedback } from './MutationFeedback';

/** Suspends a match (no predictions while suspended) or puts it back on schedule. */
export function StatusForm({ partido }: { partido: Partido }) {
  const cambiar = useAdminMutation((estado: Estado) => putEstado(partido.id, estado));
  const suspendido = partido.estado === 'suspendido';
  return (
    <div className="admin-form">
      <div className="admin-form__actions">
        <button
          type="button"
          className={suspendido ? 'button' : 'button button--danger'}
          disabled={cambiar.isPending}
          onClick={() => cambiar.mutate(suspendido ? 'programado' : 'suspendido')}
        >
          {suspendido ? 'Reanudar partido' : 'Suspender partido'}
        </button>
      </div>
      <MutationFeedback mutation={cambiar} successText={suspendido ? 'Partido suspendido.' : 'Partido reanudado.'} />
    </div>
  );
}
