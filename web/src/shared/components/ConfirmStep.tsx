import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import './confirm-step.css';

interface Props {
  /** The question, in full: it names what changes (the match, the member) and what follows. */
  question: string;
  confirmText: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirmation destroys something (a red button). */
  danger?: boolean;
}

/**
 * A confirmation inside the form, in place of its buttons: the question and two answers. Focus
 * moves to "Cancelar", the answer that changes nothing, so a screen reader reads the question
 * (the group's name) and an Enter pressed twice by mistake does no harm; Escape cancels too.
 * The caller puts focus back where it was after cancelling.
 */
export function ConfirmStep({ question, confirmText, onConfirm, onCancel, danger = false }: Props) {
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  return (
    <div className="notice confirm-step" role="group" aria-labelledby={`${id}-pregunta`} onKeyDown={onKeyDown}>
      <p id={`${id}-pregunta`} className="confirm-step__question">
        {question}
      </p>
      <div className="confirm-step__actions">
        <button type="button" className={danger ? 'button button--danger' : 'button'} onClick={onConfirm}>
          {confirmText}
        </button>
        <button type="button" className="button button--secondary" ref={cancel} onClick={onCancel}>
          Cancelar
        </button>
      </div>
    </div>
  );
}
