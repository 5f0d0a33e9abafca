// The results feature's public entry, for the app to compose.
export { useResultados } from './api/getResultados';
export { ResultsBlock } from './components/ResultsBlock';
export { ResultsPage } from './components/ResultsPage';
