import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { formatInstante } from '../../../shared/format';
import { deleteRespuestaCorrecta, putRespuestaCorrecta, type PreguntaAdmin } from '../api/preguntas';
import { useAdminMutation } from '../hooks/useAdminMutation';
import { ConfirmStep } from '../../../shared/components/ConfirmStep';
import { MutationFeedback } from './MutationFeedback';

/** When answers lock, and whether that is the organiser's own time or the default. */
function cierreTexto({ cierre, cierre_propio: propio, cerrada }: PreguntaAdmin): string {
  if (cierre === null) return 'sin cierre todavía: el torneo no tiene partidos';
  const cuando = `${cerrada ? 'cerró' : 'cierra'} el ${formatInstante(cierre)}`;
  return propio === null ? `${cuando} (una hora antes del primer partido)` : cuando;
}

/**
 * One question's right answer: one option or more (a tie, e.g. two top scorers), entered,
 * corrected or cleared; everyone's bonus points follow. Clearing asks first.
 */
export function RightAnswerForm({ pregunta }: { pregunta: PreguntaAdmin }) {
  const id = useId();
  const [elegidas, setElegidas] = useState<number[]>(pregunta.correctas);
  const [asking, setAsking] = useState(false);
  const guardar = useAdminMutation((opciones: number[]) => putRespuestaCorrecta(pregunta.torneo, pregunta.id, opciones));
  const borrar = useAdminMutation(() => deleteRespuestaCorrecta(pregunta.torneo, pregunta.id));
  const clearButton = useRef<HTMLButtonElement>(null);
  const backToClear = useRef(false);
  useEffect(() => {
    if (!asking && backToClear.current) {
      clearButton.current?.focus();
      backToClear.current = false;
    }
  }, [asking]);

  const toggle = (opcion: number, on: boolean) =>
    setElegidas((now) => (on ? [...now, opcion] : now.filter((o) => o !== opcion)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    borrar.reset();
    if (elegidas.length > 0) guardar.mutate(elegidas);
  };

  return (
    <li className="admin-question">
      <h3 className="admin-question__text">{pregunta.texto}</h3>
      <p className="admin-hint">
        {pregunta.puntos} puntos · {cierreTexto(pregunta)} ·{' '}
        {pregunta.correctas.length === 0 ? 'sin respuesta correcta' : 'respuesta correcta cargada'}
      </p>
      <form className="admin-form" onSubmit={submit}>
        <fieldset>
          <legend>Respuesta correcta (más de una si hay empate)</legend>
          <div className="admin-question__options">
            {pregunta.opciones.map((o) => (
              <div className="check" key={o.id}>
                <input
                  id={`${id}-${o.id}`}
                  type="checkbox"
                  checked={elegidas.includes(o.id)}
                  onChange={(e) => toggle(o.id, e.target.checked)}
                />
                <label htmlFor={`${id}-${o.id}`}>{o.texto}</label>
              </div>
            ))}
          </div>
        </fieldset>
        {asking ? (
          <ConfirmStep
            question={`¿Borrar la respuesta correcta de "${pregunta.texto}"? Los puntos que dio se descuentan.`}
            confirmText="Sí, borrar la respuesta"
            danger
            onConfirm={() => {
              setAsking(false);
              guardar.reset();
              borrar.mutate(undefined, { onSuccess: () => setElegidas([]) });
            }}
            onCancel={() => {
              backToClear.current = true;
              setAsking(false);
            }}
          />
        ) : (
          <div className="admin-form__actions">
            <button type="submit" className="button" disabled={elegidas.length === 0 || guardar.isPending}>
              Guardar respuesta correcta
            </button>
            {pregunta.correctas.length > 0 && (
              <button
                type="button"
                className="button button--danger"
                ref={clearButton}
                disabled={borrar.isPending}
                onClick={() => setAsking(true)}
              >
                Borrar respuesta correcta
              </button>
            )}
          </div>
        )}
        <MutationFeedback mutation={guardar} successText="Respuesta correcta guardada: los puntos se recalculan." />
        <MutationFeedback mutation={borrar} successText="Respuesta correcta borrada." />
      </form>
    </li>
  );
}
