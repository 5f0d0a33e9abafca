import { useState } from 'react';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { useProveedor } from '../api/getProveedor';
import { useAutoSignInOnce } from '../signIn/autoSignIn';
import { pendingReturn } from '../signIn/returnAfterSignIn';
import { useSignIn } from '../signIn/useSignIn';
import './signIn.css';

/** 'Ingresar con Google': opens the sign-in popup (and tries once on its own when shown). */
export function SignInButton() {
  const proveedor = useProveedor();
  const signIn = useSignIn(proveedor.data);
  useAutoSignInOnce(proveedor.isSuccess, signIn.start);
  // Why the player is here again, when their session ended in the middle of something.
  const [returning] = useState(pendingReturn);

  if (proveedor.isError) {
    return <ErrorMessage error={proveedor.error} onRetry={() => void proveedor.refetch()} />;
  }
  return (
    <div className="sign-in">
      {returning && <p className="notice sign-in__notice">{returning.aviso}</p>}
      <button
        type="button"
        className="button button--google"
        onClick={() => signIn.start()}
        disabled={!proveedor.isSuccess || signIn.busy}
      >
        <GoogleMark />
        Ingresar con Google
      </button>
      {signIn.busy && (
        <p className="sign-in__status" role="status">
          Ingresando…
        </p>
      )}
      {signIn.error !== null && <ErrorMessage error={signIn.error} onRetry={() => signIn.start()} />}
    </div>
  );
}

function GoogleMark() {
  return (
    <svg className="button__icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 2.9-2.2 5.4-4.7 7.1l7.6 5.9c4.4-4.1 6.9-10.1 6.9-17.5z" />
      <path fill="#FBBC05" d="M10.5 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6.1z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.6-5.9c-2.1 1.4-4.9 2.3-8.3 2.3-6.2 0-11.5-4.2-13.4-9.9l-7.9 6.1C6.6 42.6 14.6 48 24 48z" />
    </svg>
  );
}
