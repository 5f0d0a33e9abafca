// The standings feature's public entry, for the app to compose.
export { StandingsBlock } from './components/StandingsBlock';
export { StandingsPage } from './components/StandingsPage';
export { StandingsTable } from './components/StandingsTable';
export { PinnedStandingsTable } from './components/PinnedStandingsTable';
export { Board } from './components/Board';
export { useFijar, type Fijar } from './api/fijados';
