import type { UseMutationResult } from '@tanstack/react-query';
import { ApiError, messageOf } from '../../../shared/api/ApiError';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';

/** What the organiser may do about a change refused because it would reopen betting. */
export interface Force {
  /** "Borrar igual y reabrir las apuestas". */
  label: string;
  run: () => void;
}

interface Props<TVariables> {
  mutation: UseMutationResult<unknown, Error, TVariables>;
  successText: string;
  /**
   * For a change the server refuses once everyone's predictions were shown (409
   * apuestas_reveladas): the way to make it on purpose. Retrying as it was cannot help.
   */
  force?: Force;
}

/** The server's code for a change that would reopen betting after the predictions were shown. */
export const isReopeningRefused = (error: unknown) => error instanceof ApiError && error.code === 'apuestas_reveladas';

/** Under each admin form: what the last submit did, or why it failed with a way to repeat it. */
export function MutationFeedback<TVariables>({ mutation, successText, force }: Props<TVariables>) {
  if (mutation.isSuccess) {
    return (
      <p className="form-feedback" role="status">
        {successText}
      </p>
    );
  }
  if (mutation.isError && force && isReopeningRefused(mutation.error)) {
    return (
      <div className="error-message error-message--compact" role="alert">
        <p>{messageOf(mutation.error)}</p>
        <div className="admin-form__actions">
          <button type="button" className="button button--danger" onClick={force.run}>
            {force.label}
          </button>
          <button type="button" className="button button--secondary" onClick={() => mutation.reset()}>
            Cancelar
          </button>
        </div>
      </div>
    );
  }
  if (mutation.isError) {
    return (
      <ErrorMessage
        error={mutation.error}
        onRetry={() => mutation.mutate(mutation.variables)}
        compact
      />
    );
  }
  return null;
}
