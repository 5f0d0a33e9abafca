// The landing feature's public entry, for the app to compose.
export { Landing } from './components/Landing';
