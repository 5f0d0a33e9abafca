import { useEffect, useId, useRef, type KeyboardEvent } from 'react';

interface Props {
  question: string;
  confirmText: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * "¿Seguro?" in place of the button that asked: the question and two answers. Focus goes to
 * "Cancelar", the answer that changes nothing, so a screen reader reads the question and a double
 * Enter does no harm; Escape cancels too.
 */
export function Confirm({ question, confirmText, onConfirm, onCancel }: Props) {
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
    <div className="notice league-confirm" role="group" aria-labelledby={`${id}-pregunta`} onKeyDown={onKeyDown}>
      <p id={`${id}-pregunta`}>{question}</p>
      <div className="league-actions">
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {confirmText}
        </button>
        <button type="button" className="button button--secondary" ref={cancel} onClick={onCancel}>
          Cancelar
        </button>
      </div>
    </div>
  );
}
