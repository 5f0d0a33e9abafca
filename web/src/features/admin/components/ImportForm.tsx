import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../shared/api/ApiError';
import { postImportar, type Importacion, type OpcionesImportar, type Torneo } from '../api/postImportar';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { ImportChanges } from './ImportChanges';
import { MutationFeedback } from './MutationFeedback';
import { ShiftField } from './ShiftField';

interface Importar {
  file: File;
  opciones: OpcionesImportar;
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

const send = async ({ file, opciones }: Importar) => postImportar(await readTorneo(file), opciones);

function summary(r: Importacion): string {
  const n = r.resultados_a_cargar;
  const resultados = n === 0 ? '' : n === 1 ? ' Se cargó 1 resultado.' : ` Se cargaron ${n} resultados.`;
  const conservados =
    r.conservados === 0
      ? ''
      : r.conservados === 1
        ? ' Se conservó 1 cambio hecho a mano.'
        : ` Se conservaron ${r.conservados} cambios hechos a mano.`;
  return `${r.torneo}: ${r.creados} creados, ${r.actualizados} actualizados, ${r.sin_cambios} sin cambios.${resultados}${conservados}`;
}

function previewSummary(r: Importacion, resultados: boolean): string {
  const cargados = r.resultados_a_cargar;
  const enArchivo = r.resultados_en_archivo;
  const queResultados = resultados
    ? `Se ${cargados === 1 ? 'cargaría 1 resultado' : `cargarían ${cargados} resultados`} del archivo.`
    : enArchivo > 0
      ? `El archivo trae ${enArchivo === 1 ? '1 resultado' : `${enArchivo} resultados`}, pero no se carga ninguno: solo el fixture.`
      : 'No se carga ningún resultado: solo el fixture.';
  return (
    `Vista previa de ${r.torneo}, todavía no se guardó nada: se crearían ${r.creados} partidos, ` +
    `se actualizarían ${r.actualizados}, ${r.sin_cambios} quedarían sin cambios y se ` +
    `${r.conservados === 1 ? 'conservaría 1 cambio hecho' : `conservarían ${r.conservados} cambios hechos`} a mano. ` +
    `${queResultados} Si está bien, tocá Importar.`
  );
}

/** "2", "-1.5", "" -> a number; empty means 0. */
const numero = (value: string) => (value.trim() === '' ? 0 : Number(value));

/**
 * Imports (or re-imports: it is idempotent, and keeps what the organiser edited by hand) a whole
 * tournament file. "Vista previa" runs it without saving and lists what would change; "Importar"
 * sends the same options for real.
 */
export function ImportForm() {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [desfase, setDesfase] = useState('');
  const [resultados, setResultados] = useState(true);
  const [dias, setDias] = useState('');
  const [horas, setHoras] = useState('');
  const vista = useMutation({ mutationFn: send });
  const importar = useAdminMutation(send);
  const simular = useRef(false);
  const [sinArchivo, setSinArchivo] = useState(false);

  const desplazamientoMinutos = Math.round((numero(dias) * 24 + numero(horas)) * 60);
  const desplazamientoValido = Number.isFinite(desplazamientoMinutos);

  // Any change of file or options makes the preview on screen a preview of something else.
  const changed = <T,>(set: (value: T) => void) => (value: T) => {
    vista.reset();
    importar.reset();
    set(value);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSinArchivo(!file);
    if (!file || !desplazamientoValido) return;
    const opciones: OpcionesImportar = {
      desfase: desfase.trim(),
      resultados,
      desplazamientoMinutos,
      simular: simular.current,
    };
    if (simular.current) {
      importar.reset();
      vista.mutate({ file, opciones });
    } else {
      vista.reset();
      importar.mutate({ file, opciones });
    }
  };

  const pending = vista.isPending || importar.isPending;
  return (
    <section className="card admin-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Importar un torneo</h2>
      <form className="admin-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-archivo`}>Archivo del torneo (JSON de openfootball)</label>
          <input
            id={`${id}-archivo`}
            type="file"
            accept=".json,application/json"
            aria-invalid={sinArchivo || undefined}
            onChange={(e) => {
              setSinArchivo(false);
              changed(setFile)(e.target.files?.[0] ?? null);
            }}
          />
          {/* Checked here rather than with `required`, so both buttons say the same. */}
          {sinArchivo && (
            <p className="field-error" role="alert">
              Elegí el archivo del torneo.
            </p>
          )}
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
            onChange={(e) => changed(setDesfase)(e.target.value)}
          />
          <small id={`${id}-desfase-ayuda`}>
            Por ejemplo +03:00 para Qatar 2022, cuyos horarios están en hora local del estadio.
          </small>
        </div>
        <div className="field field--check">
          <div className="check">
            <input
              id={`${id}-resultados`}
              type="checkbox"
              checked={resultados}
              aria-describedby={`${id}-resultados-ayuda`}
              onChange={(e) => changed(setResultados)(e.target.checked)}
            />
            <label htmlFor={`${id}-resultados`}>Cargar también los resultados del archivo</label>
          </div>
          <small id={`${id}-resultados-ayuda`}>
            Marcado, como hasta ahora: se cargan los resultados que trae el archivo y suman puntos.
            Desmarcalo para traer solo el fixture, por ejemplo para jugar de nuevo un torneo que ya
            terminó.
          </small>
        </div>
        <fieldset aria-describedby={`${id}-correr-ayuda`}>
          <legend>Correr todos los horarios (opcional)</legend>
          <ShiftField id={`${id}-dias`} label="Días" value={dias} onChange={changed(setDias)} />
          <ShiftField id={`${id}-horas`} label="Horas" value={horas} onChange={changed(setHoras)} />
          <small id={`${id}-correr-ayuda`} className="fieldset-hint">
            Mueve el comienzo de todos los partidos, tengan o no zona horaria (por ejemplo «13:00
            UTC-6»). Con números negativos se adelantan.
          </small>
        </fieldset>
        <div className="admin-form__actions">
          {/* First: Enter in a field previews instead of importing. */}
          <button
            type="submit"
            className="button button--secondary"
            disabled={pending}
            onClick={() => (simular.current = true)}
          >
            Vista previa
          </button>
          <button type="submit" className="button" disabled={pending} onClick={() => (simular.current = false)}>
            Importar
          </button>
        </div>
      </form>
      {vista.isSuccess && (
        <section className="import-result" aria-labelledby={`${id}-vista`}>
          <h3 id={`${id}-vista`}>Vista previa</h3>
          <p className="import-result__summary" role="status">
            {previewSummary(vista.data, vista.variables.opciones.resultados)}
          </p>
          <ImportChanges cambios={vista.data.cambios} />
        </section>
      )}
      {!vista.isSuccess && <MutationFeedback mutation={vista} successText="" />}
      <MutationFeedback
        mutation={importar}
        successText={importar.data ? `Importado. ${summary(importar.data)}` : ''}
      />
      {importar.isSuccess && importar.data.cambios.length > 0 && (
        <section className="import-result" aria-labelledby={`${id}-hecho`}>
          <h3 id={`${id}-hecho`}>Qué cambió</h3>
          <ImportChanges cambios={importar.data.cambios} />
        </section>
      )}
    </section>
  );
}
