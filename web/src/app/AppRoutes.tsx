import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { PredictionsPage } from '../features/predictions';
import { ResultsPage } from '../features/results';
import { RequireSession } from '../features/session';
import { StandingsPage } from '../features/standings';
import { NotFound } from '../shared/layout/NotFound';
import { HomeOrLanding } from './home/HomeOrLanding';
import { Layout } from './Layout';

// Organisers only: kept out of the initial JavaScript that every player downloads.
const AdminPage = lazy(() => import('../features/admin').then(({ AdminPage }) => ({ default: AdminPage })));
// A match's page: loaded when first opened, so the initial JavaScript stays small.
const MatchPage = lazy(() => import('../features/match').then(({ MatchPage }) => ({ default: MatchPage })));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomeOrLanding />} />
        <Route
          path="jugadas"
          element={<RequireSession>{(jugador) => <PredictionsPage jugador={jugador} />}</RequireSession>}
        />
        <Route path="posiciones" element={<StandingsPage />} />
        <Route path="resultados" element={<ResultsPage />} />
        <Route
          path="partidos/:id"
          element={
            <Suspense fallback={<p className="loading" role="status">Cargando…</p>}>
              <MatchPage />
            </Suspense>
          }
        />
        <Route
          path="admin"
          element={
            <RequireSession admin>
              {() => (
                <Suspense fallback={<p className="loading" role="status">Cargando…</p>}>
                  <AdminPage />
                </Suspense>
              )}
            </RequireSession>
          }
        />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
