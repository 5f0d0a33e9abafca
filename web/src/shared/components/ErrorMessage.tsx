import { messageOf } from '../api/ApiError';

interface Props {
  error: unknown;
  onRetry: () => void;
  /** Tighter layout for a message inside a card or a form. */
  compact?: boolean;
}

/** A failed call, in Spanish (the server's `mensaje` when it sent one), with a way to try again. */
export function ErrorMessage({ error, onRetry, compact = false }: Props) {
  return (
    <div className={compact ? 'error-message error-message--compact' : 'error-message'} role="alert">
      <p>{messageOf(error)}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Reintentar
      </button>
    </div>
  );
}
