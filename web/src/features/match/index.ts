// The match feature's public entry. Only the app imports it, lazily: the match page's code stays
// out of the initial JavaScript.
export { default as MatchPage } from './components/MatchPage';
