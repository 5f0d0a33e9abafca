import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { QuestionsPage } from '../features/bonus';
import { JoinPage, LeaguePage, LeaguesPage } from '../features/leagues';
import { PredictionsPage } from '../features/predictions';
import { ResultsPage } from '../features/results';
import { RequireSession } from '../features/session';
import { Board, PinnedStandingsTable, StandingsPage } from '../features/standings';
import { NotFound } from '../shared/layout/NotFound';
import { HomeOrLanding } from './home/HomeOrLanding';
import { Layout } from './Layout';

// Organisers only: kept out of the initial JavaScript that every player downloads.
const AdminPage = lazy(() => import('../features/admin').then(({ AdminPage }) => ({ default: AdminPage })));
// A match's page: loaded when first opened, so the initial JavaScript stays small.
const MatchPage = lazy(() => import('../features/match').then(({ MatchPage }) => ({ default: MatchPage })));

/** A page loaded on demand: "Cargando…" until its code arrives. */
const loading = (page: ReactNode) => (
  <Suspense fallback={<p className="loading" role="status">Cargando…</p>}>{page}</Suspense>
);

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
        <Route path="preguntas" element={loading(<QuestionsPage />)} />
        <Route
          path="grupos"
          element={<RequireSession>{() => loading(<LeaguesPage />)}</RequireSession>}
        />
        <Route
          path="grupos/:id"
          element={
            <RequireSession>
              {(jugador) =>
                loading(
                  // A league's table is the standings' own table, restricted to its members.
                  <LeaguePage
                    jugador={jugador}
                    renderTable={(posiciones) => (
                      <PinnedStandingsTable posiciones={posiciones} jugadorId={jugador.id} caption="Tabla del grupo" />
                    )}
                    renderBoard={(g) => (
                      <Board
                        key={g.id}
                        tabla={{ grupo: g.id, torneo: g.torneo }}
                        jugadorId={jugador.id}
                        titulo="Cerca tuyo en el grupo"
                      />
                    )}
                  />,
                )
              }
            </RequireSession>
          }
        />
        {/* Signed out too: the sign-in happens on the page itself, which stays. */}
        <Route path="unirse/:codigo" element={loading(<JoinPage />)} />
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
