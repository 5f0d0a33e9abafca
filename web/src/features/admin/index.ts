// The admin feature's public entry. Only the app imports it, lazily: organisers' code stays out of
// the initial JavaScript.
export { default as AdminPage } from './components/AdminPage';
