import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmStep } from '../../../shared/components/ConfirmStep';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { useLeagueMutation } from '../api/useLeagueMutation';

interface Props {
  /** The red button: "Salir del grupo". */
  label: string;
  /** The question ConfirmStep asks, naming the league and what follows. */
  question: string;
  confirmText: string;
  /** The call that ends one's place in the league (leaving it, or deleting it). */
  run: () => Promise<unknown>;
}

/**
 * Leaving the league's page for good, after a question: once the call succeeds the league is no
 * longer one's own, so the player goes back to their leagues; a failure shows with a retry.
 */
export function LeagueExit({ label, question, confirmText, run }: Props) {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const exit = useLeagueMutation(run, () => void navigate('/grupos', { replace: true }));
  return (
    <div className="league-danger">
      {asking ? (
        <ConfirmStep
          danger
          question={question}
          confirmText={confirmText}
          onConfirm={() => {
            setAsking(false);
            exit.mutate(undefined);
          }}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" className="button button--danger" disabled={exit.isPending} onClick={() => setAsking(true)}>
          {label}
        </button>
      )}
      {exit.isError && <ErrorMessage error={exit.error} onRetry={() => exit.mutate(undefined)} compact />}
    </div>
  );
}
