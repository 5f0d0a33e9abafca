import { useId, useState, type FormEvent } from 'react';
import { postPregunta, type PreguntaEntrada } from '../api/preguntas';
import { fromDateTimeLocal } from '../hooks/dateTimeLocal';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { FormSubmit } from './FormSubmit';

/** The options as typed, one per line: trimmed, blank lines dropped. */
export const optionLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * "Nueva pregunta": its text, its points, when it closes (empty: an hour before the tournament's
 * first match, following that match if it is moved) and its options, typed one per line or the
 * tournament's teams.
 */
export function QuestionForm({ torneo }: { torneo: number }) {
  const id = useId();
  const [texto, setTexto] = useState('');
  const [puntos, setPuntos] = useState('10');
  const [cierre, setCierre] = useState('');
  const [equipos, setEquipos] = useState(false);
  const [opciones, setOpciones] = useState('');
  const crear = useAdminMutation((body: PreguntaEntrada) => postPregunta(torneo, body));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: PreguntaEntrada = {
      texto: texto.trim(),
      puntos: Number(puntos),
      cierre: fromDateTimeLocal(cierre),
      opciones: equipos ? [] : optionLines(opciones),
      ...(equipos ? { equipos: true } : {}),
    };
    crear.mutate(body, {
      onSuccess: () => {
        setTexto('');
        setOpciones('');
      },
    });
  };

  return (
    <form className="admin-form" onSubmit={submit}>
      <h3>Nueva pregunta</h3>
      <div className="field">
        <label htmlFor={`${id}-texto`}>Pregunta</label>
        <input id={`${id}-texto`} required maxLength={200} value={texto} onChange={(e) => setTexto(e.target.value)} />
      </div>
      <div className="field field--goals">
        <label htmlFor={`${id}-puntos`}>Puntos</label>
        <input
          id={`${id}-puntos`}
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          required
          value={puntos}
          onChange={(e) => setPuntos(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-cierre`}>Cierre (hora de este dispositivo, opcional)</label>
        <input
          id={`${id}-cierre`}
          type="datetime-local"
          value={cierre}
          aria-describedby={`${id}-cierre-ayuda`}
          onChange={(e) => setCierre(e.target.value)}
        />
        <span id={`${id}-cierre-ayuda`} className="fieldset-hint">
          Vacío: una hora antes del primer partido del torneo.
        </span>
      </div>
      <fieldset>
        <legend>Opciones</legend>
        <div className="check">
          <input id={`${id}-escritas`} type="radio" name={`${id}-origen`} checked={!equipos} onChange={() => setEquipos(false)} />
          <label htmlFor={`${id}-escritas`}>Escribirlas, una por línea</label>
        </div>
        <div className="check">
          <input id={`${id}-equipos`} type="radio" name={`${id}-origen`} checked={equipos} onChange={() => setEquipos(true)} />
          <label htmlFor={`${id}-equipos`}>Equipos del torneo</label>
        </div>
        {!equipos && (
          <div className="field">
            <label htmlFor={`${id}-opciones`}>Opciones (una por línea, entre 2 y 64)</label>
            <textarea
              id={`${id}-opciones`}
              rows={5}
              required
              value={opciones}
              onChange={(e) => setOpciones(e.target.value)}
            />
          </div>
        )}
      </fieldset>
      <FormSubmit mutation={crear} label="Crear pregunta" successText="Pregunta creada." />
    </form>
  );
}
