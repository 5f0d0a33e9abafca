import { useId, useState } from 'react';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { deleteCodigo, postCodigo } from '../api/codigo';
import type { Grupo } from '../api/types';
import { useLeagueMutation } from '../api/useLeagueMutation';

/** The link that lets anyone with it join: /unirse/<code> on this site. */
export const invitationLink = (codigo: string) => `${window.location.origin}/unirse/${codigo}`;

/**
 * The owner's invite link: copy it, replace it with a new one (the old one stops working) or
 * revoke it (no link works until a new one).
 */
export function InvitePanel({ grupo }: { grupo: Grupo }) {
  const id = useId();
  const [copied, setCopied] = useState<'copiado' | 'no-copiado' | null>(null);
  const nuevo = useLeagueMutation(() => postCodigo(grupo.id), () => setCopied(null));
  const revocar = useLeagueMutation(() => deleteCodigo(grupo.id), () => setCopied(null));
  const link = grupo.codigo === null ? null : invitationLink(grupo.codigo);

  const copy = async () => {
    if (link === null) return;
    try {
      await navigator.clipboard.writeText(link);
      setCopied('copiado');
    } catch {
      // No clipboard (an insecure origin, a denied permission): the link is selectable.
      setCopied('no-copiado');
    }
  };

  return (
    <section className="card league-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Invitar al grupo</h2>
      {link === null ? (
        <p>El enlace está revocado: nadie puede unirse hasta que generes uno nuevo.</p>
      ) : (
        <>
          <p>Quien abra este enlace puede unirse al grupo. Compartilo solo con quienes quieras invitar.</p>
          <div className="field">
            <label htmlFor={`${id}-enlace`}>Enlace de invitación</label>
            <input id={`${id}-enlace`} readOnly value={link} onFocus={(e) => e.target.select()} />
          </div>
        </>
      )}
      <div className="league-actions">
        {link !== null && (
          <button type="button" className="button" onClick={() => void copy()}>
            Copiar enlace
          </button>
        )}
        <button type="button" className="button button--secondary" disabled={nuevo.isPending} onClick={() => nuevo.mutate(undefined)}>
          Generar nuevo enlace
        </button>
        {link !== null && (
          <button type="button" className="button button--danger" disabled={revocar.isPending} onClick={() => revocar.mutate(undefined)}>
            Revocar enlace
          </button>
        )}
      </div>
      <p className="league-feedback" role="status">
        {copied === 'copiado' && 'Enlace copiado.'}
        {copied === 'no-copiado' && 'No pudimos copiarlo: seleccioná el enlace y copialo.'}
        {nuevo.isSuccess && !copied && 'Listo: el enlace anterior ya no sirve.'}
        {revocar.isSuccess && !copied && 'Enlace revocado.'}
      </p>
      {nuevo.isError && <ErrorMessage error={nuevo.error} onRetry={() => nuevo.mutate(undefined)} compact />}
      {revocar.isError && <ErrorMessage error={revocar.error} onRetry={() => revocar.mutate(undefined)} compact />}
    </section>
  );
}
