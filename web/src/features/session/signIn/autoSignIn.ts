import { useEffect } from 'react';

// Once per page load, and only if the page was not loaded signed in: after 'Salir' the landing
// comes back, and the popup must not open on its own (the click on 'Salir' would even let the
// browser allow it).
let attempted = false;

/** The player was seen signed in on this page load: no automatic popup from now on. */
export function skipAutomaticSignIn(): void {
  attempted = true;
}

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
