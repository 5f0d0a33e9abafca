import { useId, useState, type FormEvent } from 'react';
import type { Partido } from '../api/getPartidos';
import { putHorario } from '../api/putHorario';
import { fromDateTimeLocal, toDateTimeLocal } from '../hooks/dateTimeLocal';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { MutationFeedback } from './MutationFeedback';

/** Moves a match's kick-off; the time is entered in the browser's own time zone. */
export function ScheduleForm({ partido }: { partido: Partido }) {
  const id = useId();
  const [value, setValue] = useState(() => toDateTimeLocal(partido.inicio));
  const cambiar = useAdminMutation((inicio: string) => putHorario(partido.id, inicio));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const inicio = fromDateTimeLocal(value);
    if (inicio) cambiar.mutate(inicio);
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
      <div className="admin-form__actions">
        <button type="submit" className="button" disabled={cambiar.isPending}>
          Cambiar horario
        </button>
      </div>
      <MutationFeedback mutation={cambiar} successText="Horario cambiado." />
    </form>
  );
}
