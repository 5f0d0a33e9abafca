import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api/ApiError';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { deleteSesion } from '../api/deleteSesion';
import { sesionQueryKey } from '../api/getSesion';

// Not the player's: the session itself (now null) and how to sign in.
const KEPT = new Set(['sesion', 'proveedor']);

/** 'Salir': ends the session on the server, forgets the player's data here, back to the landing. */
export function SignOutButton() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: async () => {
      try {
        await deleteSesion();
      } catch (error) {
        // Already signed out on the server (expired session): the result is the same.
        if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
    },
    onSuccess: () => {
      queryClient.setQueryData(sesionQueryKey, null);
      // The player's own data must not outlive the session (a shared computer).
      queryClient.removeQueries({ predicate: (q) => !KEPT.has(String(q.queryKey[0])) });
      void navigate('/');
    },
  });

  return (
    <>
      <button
        type="button"
        className="link-button"
        onClick={() => signOut.mutate()}
        disabled={signOut.isPending}
      >
        Salir
      </button>
      {signOut.isError && <ErrorMessage error={signOut.error} onRetry={() => signOut.mutate()} compact />}
    </>
  );
}
