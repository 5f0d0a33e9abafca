import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, messageOf } from '../../../shared/api/ApiError';
import { SelectField } from '../../../shared/components/SelectField';
import { putRespuesta } from '../api/putRespuesta';
import type { Pregunta } from '../api/types';

/**
 * An open question's options and "Guardar respuesta". A refusal after the lock (409
 * pregunta_cerrada, by the server's clock) reloads the list, which then shows it closed.
 */
export function AnswerForm({ pregunta, onCerrada }: { pregunta: Pregunta; onCerrada: (mensaje: string) => void }) {
  const queryClient = useQueryClient();
  const [opcion, setOpcion] = useState(pregunta.mi_respuesta === null ? '' : String(pregunta.mi_respuesta));
  const guardar = useMutation({
    mutationFn: (elegida: number) => putRespuesta(pregunta.id, elegida),
    onSettled: (_data, error) => {
      const cerrada = error instanceof ApiError && error.code === 'pregunta_cerrada';
      // The reason outlives this form, which goes once the list shows the question closed.
      if (cerrada) onCerrada(error.message);
      if (!error || cerrada) return queryClient.invalidateQueries({ queryKey: ['preguntas'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (opcion !== '') guardar.mutate(Number(opcion));
  };
  const unchanged = opcion === (pregunta.mi_respuesta === null ? '' : String(pregunta.mi_respuesta));
  return (
    <form className="answer-form" onSubmit={submit}>
      <SelectField
        label="Tu respuesta"
        value={opcion}
        onChange={(value) => {
          setOpcion(value);
          guardar.reset();
        }}
      >
        <option value="" disabled>
          Elegí una opción
        </option>
        {pregunta.opciones.map((o) => (
          <option key={o.id} value={o.id}>
            {o.texto}
          </option>
        ))}
      </SelectField>
      <button type="submit" className="button" disabled={opcion === '' || guardar.isPending || (unchanged && !guardar.isError)}>
        Guardar respuesta
      </button>
      <p className="bonus-feedback" role="status">
        {guardar.isSuccess && 'Respuesta guardada.'}
      </p>
      {guardar.isError && (
        <p className="error-message error-message--compact" role="alert">
          {messageOf(guardar.error)}
        </p>
      )}
    </form>
  );
}
