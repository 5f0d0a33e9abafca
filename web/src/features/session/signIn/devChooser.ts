/**
 * Dev sign-in mode: the players service serves a local account chooser at /api/sesion/dev that
 * stands in for Google's popup. When the person picks an account it posts
 * {tipo: 'prode-codigo', code} to this window and closes itself.
 */
const CHOOSER_URL = '/api/sesion/dev';
const POPUP_NAME = 'prode-login';
const POPUP_FEATURES = 'width=500,height=600';

/** Opens the chooser; false when the browser blocked the popup. */
export function openDevChooser(): boolean {
  return window.open(CHOOSER_URL, POPUP_NAME, POPUP_FEATURES) !== null;
}

/** The code carried by a message from the chooser, or null for any other message. */
export function codeFromMessage(event: MessageEvent): string | null {
  // Only our own origin may hand us a sign-in code: any page can postMessage to this window.
  if (event.origin !== window.location.origin) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const { tipo, code } = data as { tipo?: unknown; code?: unknown };
  if (tipo !== 'prode-codigo' || typeof code !== 'string' || code === '') return null;
  return code;
}
