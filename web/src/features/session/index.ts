// The session feature's public entry: what the screens and the app may use of it.
export { useSesion, type Jugador } from './api/getSesion';
export { DevModeBanner } from './components/DevModeBanner';
export { RequireSession } from './components/RequireSession';
export { SignInButton } from './components/SignInButton';
export { SignOutButton } from './components/SignOutButton';
export { skipAutomaticSignIn } from './signIn/autoSignIn';
export { pendingReturn, returnAfterSignIn } from './signIn/returnAfterSignIn';
