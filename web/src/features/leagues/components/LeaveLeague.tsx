import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { deleteMiembro } from '../api/miembros';
import type { Grupo } from '../api/types';
import { useLeagueMutation } from '../api/useLeagueMutation';
import { ConfirmStep } from '../../../shared/components/ConfirmStep';

/** "Salir del grupo", for a member who did not create it (after a question). */
export function LeaveLeague({ grupo, jugadorId }: { grupo: Grupo; jugadorId: number }) {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const salir = useLeagueMutation(
    () => deleteMiembro(grupo.id, jugadorId),
    () => void navigate('/grupos', { replace: true }),
  );
  return (
    <div className="league-danger">
      {asking ? (
        <ConfirmStep
          danger
          question={`¿Salir de ${grupo.nombre}? Para volver vas a necesitar un enlace de invitación.`}
          confirmText="Sí, salir"
          onConfirm={() => {
            setAsking(false);
            salir.mutate(undefined);
          }}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" className="button button--danger" disabled={salir.isPending} onClick={() => setAsking(true)}>
          Salir del grupo
        </button>
      )}
      {salir.isError && <ErrorMessage error={salir.error} onRetry={() => salir.mutate(undefined)} compact />}
    </div>
  );
}
