import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { formatInstante } from '../../../shared/format';
import type { Partido } from '../api/getPartidos';
import { deleteResultado } from '../api/deleteResultado';
import { putResultado, type ResultadoEntrada } from '../api/putResultado';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { ConfirmStep } from '../../../shared/components/ConfirmStep';
import { MutationFeedback } from './MutationFeedback';

type Field = keyof ResultadoEntrada;

const toText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
const toNumber = (s: string) => (s.trim() === '' ? null : Number(s));

/** What the form is asking the organiser before it sends anything. */
type Step = { kind: 'editing' } | { kind: 'confirmar-borrado' } | { kind: 'confirmar-antes-de-tiempo'; body: ResultadoEntrada };

/** The match has not kicked off yet, by this device's clock. */
const notStarted = (partido: Partido) => Date.parse(partido.inicio) > Date.now();

/**
 * Enters or corrects a result (90 minutes; extra time and shoot-out optional), or removes it.
 * Removing asks first, and so does entering one before kick-off: both change everyone's points.
 * When the server refuses a removal that would reopen betting after the predictions were shown,
 * the organiser may insist, on purpose.
 */
export function ResultForm({ partido }: { partido: Partido }) {
  const id = useId();
  const r = partido.resultado;
  const [values, setValues] = useState<Record<Field, string>>({
    goles_local: toText(r?.goles_local),
    goles_visitante: toText(r?.goles_visitante),
    goles_local_alargue: toText(r?.goles_local_alargue),
    goles_visitante_alargue: toText(r?.goles_visitante_alargue),
    penales_local: toText(r?.penales_local),
    penales_visitante: toText(r?.penales_visitante),
  });
  const guardar = useAdminMutation((body: ResultadoEntrada) => putResultado(partido.id, body));
  const borrar = useAdminMutation((forzar: boolean) => deleteResultado(partido.id, forzar));
  const [step, setStep] = useState<Step>({ kind: 'editing' });
  // Where focus goes once a question is answered (its buttons leave the page): back to the
  // button that asked, or to "Guardar resultado" when that one is gone (the result was removed).
  const saveButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const focusAfter = useRef<'guardar' | 'borrar' | null>(null);
  useEffect(() => {
    if (step.kind !== 'editing' || !focusAfter.current) return;
    const target = focusAfter.current === 'borrar' ? (deleteButton.current ?? saveButton.current) : saveButton.current;
    target?.focus();
    focusAfter.current = null;
  }, [step]);
  const answered = (focus: 'guardar' | 'borrar') => {
    focusAfter.current = focus;
    setStep({ kind: 'editing' });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    borrar.reset();
    guardar.reset();
    const body = {
      goles_local: Number(values.goles_local),
      goles_visitante: Number(values.goles_visitante),
      goles_local_alargue: toNumber(values.goles_local_alargue),
      goles_visitante_alargue: toNumber(values.goles_visitante_alargue),
      penales_local: toNumber(values.penales_local),
      penales_visitante: toNumber(values.penales_visitante),
    };
    if (notStarted(partido)) setStep({ kind: 'confirmar-antes-de-tiempo', body });
    else guardar.mutate(body);
  };

  const input = (field: Field, label: string, required = false) => (
    <div className="field field--goals">
      <label htmlFor={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        type="number"
        inputMode="numeric"
        min={0}
        max={99}
        required={required}
        value={values[field]}
        onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
      />
    </div>
  );

  const { nombre_local: local, nombre_visitante: visitante } = partido;
  return (
    <form className="admin-form" onSubmit={submit}>
      <fieldset>
        <legend>Resultado a los 90 minutos</legend>
        {input('goles_local', `Goles de ${local}`, true)}
        {input('goles_visitante', `Goles de ${visitante}`, true)}
      </fieldset>
      <fieldset>
        <legend>Alargue (opcional, resultado acumulado)</legend>
        {input('goles_local_alargue', `Goles de ${local} con alargue`)}
        {input('goles_visitante_alargue', `Goles de ${visitante} con alargue`)}
      </fieldset>
      <fieldset>
        <legend>Penales (opcional)</legend>
        {input('penales_local', `Penales de ${local}`)}
        {input('penales_visitante', `Penales de ${visitante}`)}
      </fieldset>
      {step.kind === 'confirmar-borrado' && (
        <ConfirmStep
          question={`¿Borrar el resultado de ${local} - ${visitante}? Los puntos de ese partido se recalculan.`}
          confirmText="Sí, borrar el resultado"
          danger
          onConfirm={() => {
            answered('guardar');
            borrar.mutate(false);
          }}
          onCancel={() => answered('borrar')}
        />
      )}
      {step.kind === 'confirmar-antes-de-tiempo' && (
        <ConfirmStep
          question={`El partido todavía no empezó (empieza el ${formatInstante(partido.inicio)}). ¿Cargar el resultado igual?`}
          confirmText="Sí, cargar el resultado"
          onConfirm={() => {
            answered('guardar');
            guardar.mutate(step.body);
          }}
          onCancel={() => answered('guardar')}
        />
      )}
      {step.kind === 'editing' && (
        <div className="admin-form__actions">
          <button type="submit" className="button" ref={saveButton} disabled={guardar.isPending}>
            Guardar resultado
          </button>
          {partido.resultado && (
            <button
              type="button"
              className="button button--danger"
              ref={deleteButton}
              disabled={borrar.isPending}
              onClick={() => {
                guardar.reset();
                borrar.reset();
                setStep({ kind: 'confirmar-borrado' });
              }}
            >
              Borrar resultado
            </button>
          )}
        </div>
      )}
      <MutationFeedback mutation={guardar} successText="Resultado guardado." />
      <MutationFeedback
        mutation={borrar}
        successText={borrar.variables ? 'Resultado borrado. Quedó registrado que reabriste las apuestas.' : 'Resultado borrado.'}
        force={{ label: 'Borrar igual y reabrir las apuestas', run: () => borrar.mutate(true) }}
      />
    </form>
  );
}
