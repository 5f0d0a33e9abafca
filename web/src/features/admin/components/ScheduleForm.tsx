import { useId, useState, type FormEvent } from 'react';
import type { Partido } from '../api/getPartidos';
import { putHorario, type Horario } from '../api/putHorario';
import { fromDateTimeLocal, toDateTimeLocal } from '../hooks/dateTimeLocal';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { FormSubmit } from './FormSubmit';

/**
 * Moves a match's kick-off; the time is entered in the browser's own time zone. When the server
 * refuses a move that would reopen betting after the predictions were shown, the organiser may
 * insist, on purpose.
 */
export function ScheduleForm({ partido }: { partido: Partido }) {
  const id = useId();
  const [value, setValue] = useState(() => toDateTimeLocal(partido.inicio));
  const cambiar = useAdminMutation((horario: Horario) => putHorario(partido.id, horario));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const inicio = fromDateTimeLocal(value);
    if (inicio) cambiar.mutate({ inicio });
  };
  const forzar = () => {
    const inicio = fromDateTimeLocal(value);
    if (inicio) cambiar.mutate({ inicio, forzar: true });
  };

  return (
    <form className="admin-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${id}-inicio`}>Comienzo (hora de este dispositivo)</label>
        <input
          id={`${id}-inicio`}
          type="datetime-local"
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </div>
      <FormSubmit
        mutation={cambiar}
        label="Cambiar horario"
        successText={cambiar.variables?.forzar ? 'Horario cambiado. Quedó registrado que reabriste las apuestas.' : 'Horario cambiado.'}
        force={{ label: 'Cambiar igual y reabrir las apuestas', run: forzar }}
      />
    </form>
  );
}
