import type { UseMutationResult } from '@tanstack/react-query';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';

interface Props<TVariables> {
  mutation: UseMutationResult<unknown, Error, TVariables>;
  successText: string;
}

/** Under each admin form: what the last submit did, or why it failed with a way to repeat it. */
export function MutationFeedback<TVariables>({ mutation, successText }: Props<TVariables>) {
  if (mutation.isSuccess) {
    return (
      <p className="form-feedback" role="status">
        {successText}
      </p>
    );
  }
  if (mutation.isError) {
    return (
      <ErrorMessage
        error={mutation.error}
        onRetry={() => mutation.mutate(mutation.variables as TVariables)}
        compact
      />
    );
  }
  return null;
}
