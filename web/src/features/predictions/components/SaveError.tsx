interface Props {
  message: string;
  /** Absent when trying again cannot help (a refusal): then no 'Reintentar' is offered. */
  onRetry?: () => void;
}

/** Why a save failed, next to its match, with 'Reintentar' only when it may work. */
export function SaveError({ message, onRetry }: Props) {
  return (
    <div className="error-message error-message--compact" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="button button--secondary" onClick={onRetry}>
          Reintentar
        </button>
      )}
    </div>
  );
}
