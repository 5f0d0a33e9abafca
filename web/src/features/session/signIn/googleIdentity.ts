/**
 * Google sign-in (modo 'google'): Google Identity Services' code client in popup mode. The script
 * is loaded only in this mode, so dev and test runs never reach out to Google.
 */
const SCRIPT_URL = 'https://accounts.google.com/gsi/client';

/** Why the popup flow ended without a code, as Google Identity Services reports it. */
export type GooglePopupError = 'popup_failed_to_open' | 'popup_closed' | 'unknown';

interface CodeResponse {
  code?: string;
  error?: string;
}

interface CodeClient {
  requestCode(): void;
}

interface GoogleAccounts {
  oauth2: {
    initCodeClient(config: {
      client_id: string;
      scope: string;
      ux_mode: 'popup';
      select_account: boolean;
      callback: (response: CodeResponse) => void;
      error_callback: (error: { type: GooglePopupError }) => void;
    }): CodeClient;
  };
}

declare global {
  interface Window {
    google?: { accounts: GoogleAccounts };
  }
}

let loading: Promise<void> | null = null;

/** Loads the Google Identity Services script once; a failed load can be tried again. */
export function loadGoogleIdentity(): Promise<void> {
  if (window.google?.accounts) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      loading = null;
      reject(new Error('google identity services did not load'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

interface Handlers {
  onCode: (code: string) => void;
  onError: (error: GooglePopupError) => void;
}

/**
 * Opens Google's popup with forced account selection (the specification's behaviour). The popup
 * size is Google's own; it is not configurable in this flow.
 */
export function requestGoogleCode(clientId: string, { onCode, onError }: Handlers): void {
  const accounts = window.google?.accounts;
  if (!accounts) {
    onError('unknown');
    return;
  }
  const client = accounts.oauth2.initCodeClient({
    client_id: clientId,
    scope: 'openid email profile',
    ux_mode: 'popup',
    // The code client's way of saying prompt=select_account.
    select_account: true,
    callback: (response) => (response.code ? onCode(response.code) : onError('unknown')),
    error_callback: (error) => onError(error.type),
  });
  client.requestCode();
}
