import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../../shared/api/ApiError';
import { postImportar, type Importacion, type Torneo } from '../api/postImportar';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { MutationFeedback } from './MutationFeedback';

interface Importar {
  file: File;
  desfase: string;
}

const notATournament = () =>
  new ApiError(
    0,
    'archivo_invalido',
    'El archivo no es un torneo en formato openfootball (un JSON con "name" y "matches").',
  );

/** Reads the chosen file as openfootball's JSON; the server validates the matches themselves. */
async function readTorneo(file: File): Promise<Torneo> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await file.text());
  } catch {
    throw notATournament();
  }
  const t = parsed as Partial<Torneo> | null;
  if (typeof t !== 'object' || t === null || typeof t.name !== 'string' || !Array.isArray(t.matches)) {
    throw notATournament();
  }
  return t as Torneo;
}

function summary(r: Importacion): string {
  return `${r.torneo}: ${r.creados} creados, ${r.actualizados} actualizados, ${r.sin_cambios} sin cambios.`;
}

/** Imports (or re-imports: it is idempotent) a whole tournament file. */
export function ImportForm() {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [desfase, setDesfase] = useState('');
  const importar = useAdminMutation(async ({ file, desfase }: Importar) =>
    postImportar(await readTorneo(file), desfase.trim()),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) importar.mutate({ file, desfase });
  };

  return (
    <section className="admin-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Importar un torneo</h2>
      <form className="admin-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-archivo`}>Archivo del torneo (JSON de openfootball)</label>
          <input
            id={`${id}-archivo`}
            type="file"
            accept=".json,application/json"
            required
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-desfase`}>Desfase horario de los horarios sin zona (opcional)</label>
          <input
            id={`${id}-desfase`}
            type="text"
            placeholder="+03:00"
            pattern="[+\-]\d{2}:\d{2}"
            aria-describedby={`${id}-desfase-ayuda`}
            value={desfase}
            onChange={(e) => setDesfase(e.target.value)}
          />
          <small id={`${id}-desfase-ayuda`}>
            Por ejemplo +03:00 para Qatar 2022, cuyos horarios están en hora local del estadio.
          </small>
        </div>
        <button type="submit" className="button" disabled={importar.isPending}>
          Importar
        </button>
      </form>
      <MutationFeedback
        mutation={importar}
        successText={importar.data ? `Importado. ${summary(importar.data)}` : ''}
      />
    </section>
  );
}
