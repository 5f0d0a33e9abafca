import { lazy } from 'react';

// The bonus questions feature's public entry ("preguntas"), for the app to compose. The home's
// link is small and comes with the home; the page is loaded when first opened (the app wraps it
// in Suspense).
export { OpenQuestionsLink } from './components/OpenQuestionsLink';
export const QuestionsPage = lazy(() => import('./components/QuestionsPage').then((m) => ({ default: m.QuestionsPage })));
