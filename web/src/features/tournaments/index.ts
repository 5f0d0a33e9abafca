// The tournaments feature's public entry: what the screens and the app may use of it.
export { useTorneos, type Torneo } from './api/getTorneos';
export { TournamentOptions } from './components/TournamentOptions';
export { TournamentPicker } from './components/TournamentPicker';
export { TournamentSubtitle } from './components/TournamentSubtitle';
export { useTorneoParam } from './hooks/useTorneoParam';
