import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { postGrupo } from '../api/postGrupo';
import { useLeagueMutation } from '../api/useLeagueMutation';

/** The server's limit on a league's name (visible characters). */
export const NOMBRE_MAX = 60;

/** "Crear grupo": a name, then the new league's page, where its invite link is. */
export function CreateLeagueForm({ torneo }: { torneo: number | undefined }) {
  const id = useId();
  const navigate = useNavigate();
  const [nombre, setNombre] = useState('');
  const crear = useLeagueMutation(
    (n: string) => postGrupo(n, torneo),
    (grupo) => void navigate(`/grupos/${grupo.id}`),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = nombre.trim();
    if (n !== '') crear.mutate(n);
  };
  return (
    <section className="card league-create" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Crear grupo</h2>
      <p>Jugá con tu familia, tus amigos o tu oficina en una tabla propia; los puntos son los mismos del prode.</p>
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
        <button type="submit" className="button" disabled={crear.isPending || nombre.trim() === ''}>
          Crear grupo
        </button>
      </form>
      {crear.isError && <ErrorMessage error={crear.error} onRetry={() => crear.mutate(nombre.trim())} compact />}
    </section>
  );
}
