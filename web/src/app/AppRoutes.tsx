import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { HomeOrLanding } from '../features/home/components/HomeOrLanding';
import { PredictionsPage } from '../features/predictions/components/PredictionsPage';
import { ResultsPage } from '../features/results/components/ResultsPage';
import { RequireSession } from '../features/session/components/RequireSession';
import { StandingsPage } from '../features/standings/components/StandingsPage';
import { Layout } from '../shared/layout/Layout';
import { NotFound } from '../shared/layout/NotFound';

// Organisers only: kept out of the initial JavaScript that every player downloads.
const AdminPage = lazy(() => import('../features/admin/components/AdminPage'));
// A match's page: loaded when first opened, so the initial JavaScript stays small.
const MatchPage = lazy(() => import('../features/match/components/MatchPage'));

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
