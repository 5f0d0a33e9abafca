import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api/ApiError';
import type { Proveedor } from '../api/getProveedor';
import { sesionQueryKey } from '../api/getSesion';
import { postJugador } from '../api/postJugador';
import { postSesion } from '../api/postSesion';
import { codeFromMessage, openDevChooser } from './devChooser';
import { loadGoogleIdentity, requestGoogleCode } from './googleIdentity';
import { takePendingReturn } from './returnAfterSignIn';

const popupBlocked = () =>
  new ApiError(
    0,
    'ventana_bloqueada',
    'El navegador bloqueó la ventana para ingresar. Permití las ventanas emergentes de este sitio e intentá de nuevo.',
  );
const googleUnavailable = () =>
  new ApiError(
    0,
    'google_no_disponible',
    'No pudimos abrir el ingreso con Google. Revisá tu conexión e intentá de nuevo.',
  );

export interface SignIn {
  /** Opens the sign-in popup. `automatic`: not asked for by a click, so a blocked popup is no error. */
  start: (automatic?: boolean) => void;
  busy: boolean;
  error: unknown;
}

/**
 * The whole sign-in: popup (dev chooser or Google), then POST /api/sesion with the code, then
 * POST /api/jugadores (the specification registers the player on every sign-in), then the
 * session query holds the player and every screen follows. A screen whose session ended under
 * the player (returnAfterSignIn) is where they go back to.
 */
export function useSignIn(proveedor: Proveedor | undefined): SignIn {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const complete = useCallback(
    async (code: string) => {
      setBusy(true);
      setError(null);
      try {
        const jugador = await postSesion(code);
        await postJugador(jugador);
        queryClient.setQueryData(sesionQueryKey, jugador);
        void queryClient.invalidateQueries({ queryKey: sesionQueryKey });
        const back = takePendingReturn();
        if (back) void navigate(back.path, { replace: true });
      } catch (e) {
        setError(e);
      } finally {
        setBusy(false);
      }
    },
    [queryClient, navigate],
  );

  // The dev chooser answers with a message; Google's flow answers through its callback.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const code = codeFromMessage(event);
      if (code) void complete(code);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [complete]);

  const isGoogle = proveedor?.modo === 'google';
  // Loaded ahead of the click: the popup must open while the click still counts as a user gesture.
  useEffect(() => {
    if (isGoogle) loadGoogleIdentity().catch(() => undefined);
  }, [isGoogle]);

  const start = useCallback(
    (automatic = false) => {
      if (!proveedor) return;
      setError(null);
      const fail = (e: unknown) => {
        if (!automatic) setError(e);
      };
      if (proveedor.modo === 'dev') {
        if (!openDevChooser()) fail(popupBlocked());
        return;
      }
      loadGoogleIdentity().then(
        () =>
          requestGoogleCode(proveedor.client_id, {
            onCode: (code) => void complete(code),
            onError: (type) => {
              // Closing the popup is the person's choice, not an error to show.
              if (type === 'popup_failed_to_open') fail(popupBlocked());
              else if (type === 'unknown') fail(googleUnavailable());
            },
          }),
        () => fail(googleUnavailable()),
      );
    },
    [proveedor, complete],
  );

  return { start, busy, error };
}
