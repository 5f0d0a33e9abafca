// The predictions feature's public entry, for the app to compose.
export { PredictionsPage } from './components/PredictionsPage';
export { WarningBanner } from './components/WarningBanner';
