import { lazy } from 'react';

// The leagues feature's public entry ("grupos"), for the app to compose. The home's block is small
// and comes with the home; the pages are loaded when first opened, so the initial JavaScript stays
// small (the app wraps them in Suspense).
export { MyLeaguesBlock } from './components/MyLeaguesBlock';
export type { PosicionGrupo } from './api/types';
export const LeaguesPage = lazy(() => import('./components/LeaguesPage').then((m) => ({ default: m.LeaguesPage })));
export const LeaguePage = lazy(() => import('./components/LeaguePage').then((m) => ({ default: m.LeaguePage })));
export const JoinPage = lazy(() => import('./components/JoinPage').then((m) => ({ default: m.JoinPage })));
