import { useEffect } from 'react';

// Once per page load: after 'Salir' the landing comes back, and the popup should not reopen.
let attempted = false;

/**
 * The specification opens the sign-in popup as soon as the landing loads. Browsers usually block a
 * popup that no click asked for; then nothing happens and the landing's button remains.
 */
export function useAutoSignInOnce(ready: boolean, start: (automatic: boolean) => void): void {
  useEffect(() => {
    if (!ready || attempted) return;
    attempted = true;
    start(true);
  }, [ready, start]);
}
