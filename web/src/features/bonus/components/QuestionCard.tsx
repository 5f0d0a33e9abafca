import { useId, useState } from 'react';
import { formatInstante } from '../../../shared/format';
import type { Pregunta } from '../api/types';
import { AnswerCounts } from './AnswerCounts';
import { AnswerForm } from './AnswerForm';

const puntos = (n: number) => (n === 1 ? '1 punto' : `${n} puntos`);

/** The texts of the given options, in the question's order: "Argentina y Francia". */
function textos(pregunta: Pregunta, ids: number[]): string {
  const names = pregunta.opciones.filter((o) => ids.includes(o.id)).map((o) => o.texto);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} y ${names.at(-1)}`;
}

/** When answers lock: a tournament without matches has no lock yet, and takes no answers. */
function cierreTexto({ cierre, cerrada }: Pregunta): string {
  if (cierre === null) return 'Todavía no se puede responder';
  return cerrada ? `Cerró el ${formatInstante(cierre)}` : `Podés responder hasta el ${formatInstante(cierre)}`;
}

/**
 * One bonus question. Open: the options and one's answer, to change until the lock. Closed: one's
 * answer, the right one and the points once the organiser entered it, and everyone's answers.
 */
export function QuestionCard({ pregunta, signedIn }: { pregunta: Pregunta; signedIn: boolean }) {
  const id = useId();
  const { cerrada, correctas, mi_respuesta: mia } = pregunta;
  // Why a save was refused at the lock (the server's words), shown once the card turns closed.
  const [aviso, setAviso] = useState<string | null>(null);
  return (
    <li className="card bonus-question">
      <h2 id={`${id}-texto`} className="bonus-question__text">
        {pregunta.texto}
      </h2>
      <p className="bonus-question__meta">
        {puntos(pregunta.puntos)} ·{' '}
        {cierreTexto(pregunta)}
      </p>
      {!cerrada && signedIn && <AnswerForm pregunta={pregunta} onCerrada={setAviso} />}
      {!cerrada && !signedIn && (
        <p>Opciones: {pregunta.opciones.map((o) => o.texto).join(', ')}. Ingresá para responder.</p>
      )}
      {cerrada && (
        <div className="bonus-question__closed">
          {aviso && (
            <p className="error-message error-message--compact" role="alert">
              {aviso}
            </p>
          )}
          {signedIn && <p>{mia === null ? 'No respondiste esta pregunta.' : `Tu respuesta: ${textos(pregunta, [mia])}.`}</p>}
          {correctas.length === 0 ? (
            <p>La respuesta correcta todavía no se cargó.</p>
          ) : (
            <>
              <p>
                {correctas.length === 1 ? 'Respuesta correcta' : 'Respuestas correctas'}: <strong>{textos(pregunta, correctas)}</strong>.
              </p>
              {signedIn && mia !== null && (
                <p className={correctas.includes(mia) ? 'bonus-question__won' : undefined}>
                  {correctas.includes(mia) ? `¡Acertaste! Sumaste ${puntos(pregunta.puntos)}.` : 'No acertaste: no sumaste puntos.'}
                </p>
              )}
            </>
          )}
          {signedIn && <AnswerCounts pregunta={pregunta} />}
        </div>
      )}
    </li>
  );
}
