import { useId, useState, type FormEvent } from 'react';

/** The server's limit on a league's name (visible characters). */
export const NOMBRE_MAX = 60;

interface Props {
  /** The name the field starts with: empty for a new league, the current one to rename. */
  initial?: string;
  submitText: string;
  pending: boolean;
  /** Called with the trimmed name, never an empty one. */
  onSubmit: (nombre: string) => void;
}

/** A league's name and one button: the form of "Crear grupo" and of renaming a league. */
export function LeagueNameForm({ initial = '', submitText, pending, onSubmit }: Props) {
  const id = useId();
  const [nombre, setNombre] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = nombre.trim();
    if (n !== '') onSubmit(n);
  };
  return (
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
      <button type="submit" className="button" disabled={pending || nombre.trim() === ''}>
        {submitText}
      </button>
    </form>
  );
}
