import { useId, useState, type FormEvent } from 'react';
import type { Partido } from '../api/getPartidos';
import { deleteResultado } from '../api/deleteResultado';
import { putResultado, type ResultadoEntrada } from '../api/putResultado';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { MutationFeedback } from './MutationFeedback';

type Field = keyof ResultadoEntrada;

const toText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
const toNumber = (s: string) => (s.trim() === '' ? null : Number(s));

/** Enters or corrects a result (90 minutes; extra time and shoot-out optional), or removes it. */
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
  const borrar = useAdminMutation(() => deleteResultado(partido.id));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    borrar.reset();
    guardar.mutate({
      goles_local: Number(values.goles_local),
      goles_visitante: Number(values.goles_visitante),
      goles_local_alargue: toNumber(values.goles_local_alargue),
      goles_visitante_alargue: toNumber(values.goles_visitante_alargue),
      penales_local: toNumber(values.penales_local),
      penales_visitante: toNumber(values.penales_visitante),
    });
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
      <div className="admin-form__actions">
        <button type="submit" className="button" disabled={guardar.isPending}>
          Guardar resultado
        </button>
        {partido.resultado && (
          <button
            type="button"
            className="button button--danger"
            disabled={borrar.isPending}
            onClick={() => {
              guardar.reset();
              borrar.mutate(undefined);
            }}
          >
            Borrar resultado
          </button>
        )}
      </div>
      <MutationFeedback mutation={guardar} successText="Resultado guardado." />
      <MutationFeedback mutation={borrar} successText="Resultado borrado." />
    </form>
  );
}
