import { deleteMiembro } from '../api/miembros';
import type { Grupo } from '../api/types';
import { LeagueExit } from './LeagueExit';

/** "Salir del grupo", for a member who did not create it (after a question). */
export function LeaveLeague({ grupo, jugadorId }: { grupo: Grupo; jugadorId: number }) {
  return (
    <LeagueExit
      label="Salir del grupo"
      question={`¿Salir de ${grupo.nombre}? Para volver vas a necesitar un enlace de invitación.`}
      confirmText="Sí, salir"
      run={() => deleteMiembro(grupo.id, jugadorId)}
    />
  );
}
