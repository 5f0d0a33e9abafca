import type { UseMutationResult } from '@tanstack/react-query';
import { MutationFeedback, type Force } from './MutationFeedback';

interface Props<TVariables> {
  mutation: UseMutationResult<unknown, Error, TVariables>;
  /** The button: "Crear pregunta". */
  label: string;
  successText: string;
  /** Besides while the change is being made: nothing to save yet. */
  disabled?: boolean;
  force?: Force;
}

/** The end of an admin form: its submit button, off while the change is made, and what it did. */
export function FormSubmit<TVariables>({ mutation, label, successText, disabled = false, force }: Props<TVariables>) {
  return (
    <>
      <div className="admin-form__actions">
        <button type="submit" className="button" disabled={mutation.isPending || disabled}>
          {label}
        </button>
      </div>
      <MutationFeedback mutation={mutation} successText={successText} force={force} />
    </>
  );
}
