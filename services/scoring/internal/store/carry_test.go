package store_test

import (
	"context"
	"testing"

	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// A snapshot carried ahead of the points rows (CarryAhead: the newest snapshot plus what the match
// changes) is, row by row, the table a build from the totals ranks once the rows are written:
// results entered on one matchday and the next, a correction of an earlier day, a result of a new
// matchday that newcomers predicted, a deleted result (the last matchday moves back: not carried,
// ranked from the totals), a result entered again, an earlier day's result deleted, a result whose
// points rows another scorer wrote since (not carried), and a result deleted, predictions changed
// and the result entered again, applied together.
func TestCarriedSnapshotEqualsTheTotals(t *testing.T) {
	e := scoringtest.New(t)
	ctx := context.Background()
	m1 := e.Match("Grupo A", "ARG", "FRA", scoringtest.NoonDaysAgo(t, 4))
	m2 := e.Match("Grupo A", "CRO", "MAR", scoringtest.NoonDaysAgo(t, 4))
	m3 := e.Match("Grupo B", "ENG", "BRA", scoringtest.NoonDaysAgo(t, 3))
	m4 := e.Match("Grupo B", "ARG", "BRA", scoringtest.NoonDaysAgo(t, 2))
	players(e, 300)
	predictMost(e, m1, m2, m3)
	s := newScorer(t, e, m1)
	if _, err := s.standings.Build(ctx, s.torneo, true, scorerZone); err != nil {
		t.Fatal(err)
	}
	score := func(step string, partido, evento int64, wantCarried bool) {
		t.Helper()
		s.carryAndScore(t, step, partido, []int64{evento}, wantCarried)
	}

	score("first result", m1, e.SetResult(m1, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1}), true)
	score("same matchday", m2, e.SetResult(m2, scoringtest.Result{}), true)
	score("next matchday", m3, e.SetResult(m3, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1}), true)
	score("an earlier day corrected", m1, e.SetResult(m1, scoringtest.Result{GolesLocal: 3, GolesVisitante: 1}), true)

	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre)
	        SELECT 'late' || i, 'late' || i || '@example.com', 'Tarde ' || i FROM generate_series(1, 12) i`)
	predictMost(e, m4)
	score("a new matchday, newcomers in it", m4, e.SetResult(m4, scoringtest.Result{GolesLocal: 1}), true)
	score("the last matchday's only result deleted", m4, e.DeleteResult(m4), false)
	score("entered again", m4, e.SetResult(m4, scoringtest.Result{GolesLocal: 2, GolesVisitante: 2}), true)
	score("an earlier day's result deleted", m2, e.DeleteResult(m2), true)

	// Another scorer (the previous release, which does not record the score its rows count)
	// applies a newer event of m3: the rows are not known to be the ones the snapshot counted.
	e.Exec(`INSERT INTO scoring.eventos_procesados (evento_id) VALUES ($1)`,
		e.SetResult(m3, scoringtest.Result{GolesLocal: 0, GolesVisitante: 1}))
	score("rows written by another scorer", m3, e.SetResult(m3, scoringtest.Result{GolesLocal: 0, GolesVisitante: 2}), false)
	score("known again", m3, e.SetResult(m3, scoringtest.Result{GolesLocal: 4, GolesVisitante: 2}), true)

	// While scoring is away, m1's result is deleted (which can reopen betting), a fifth of the
	// players change their prediction of it, and it gets a result again: applied together, the
	// delta must subtract the points of the rows, not of the predictions as they are now.
	deleted := e.DeleteResult(m1)
	e.Exec(`UPDATE predictions.apuestas SET goles_local = 3, goles_visitante = 1 WHERE partido_id = $1 AND jugador_id % 5 = 0`, m1)
	entered := e.SetResult(m1, scoringtest.Result{GolesLocal: 3, GolesVisitante: 1})
	s.carryAndScore(t, "deleted, predictions changed, entered again, in one pass", m1, []int64{deleted, entered}, true)
}

// A carry computes each match's points once per score a prediction can name (0-99 goals each),
// not per prediction: predictions at the grid's edges and corners must move the table as the
// points rows computed from each prediction do, through an entry, a correction and a deletion.
func TestACarryCountsEveryScoreAPredictionCanName(t *testing.T) {
	e := scoringtest.New(t)
	m := e.Match("Grupo A", "ARG", "FRA", scoringtest.NoonDaysAgo(t, 2))
	players(e, 8)
	e.Exec(`INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
	        SELECT j.id, j.email, $1, (ARRAY[0, 99, 99, 0, 98, 99, 1, 50])[j.id], (ARRAY[0, 99, 0, 99, 99, 98, 0, 49])[j.id]
	          FROM players.jugadores j`, m)
	s := newScorer(t, e, m)
	if _, err := s.standings.Build(context.Background(), s.torneo, true, scorerZone); err != nil {
		t.Fatal(err)
	}
	s.carryAndScore(t, "99-98 entered", m, []int64{e.SetResult(m, scoringtest.Result{GolesLocal: 99, GolesVisitante: 98})}, true)
	s.carryAndScore(t, "corrected to 99-99", m, []int64{e.SetResult(m, scoringtest.Result{GolesLocal: 99, GolesVisitante: 99})}, true)
	s.carryAndScore(t, "corrected to 0-99", m, []int64{e.SetResult(m, scoringtest.Result{GolesLocal: 0, GolesVisitante: 99})}, true)
	s.carryAndScore(t, "deleted", m, []int64{e.DeleteResult(m)}, false)
}

// wholeTable reads every row of snapshot tabla.
func wholeTable(t *testing.T, st *store.StandingsStore, tabla store.Tabla) []store.Posicion {
	t.Helper()
	var rows []store.Posicion
	for pagina := 1; int64(len(rows)) < tabla.Filas; pagina++ {
		p, err := st.Page(context.Background(), store.Version{Tabla: tabla}, pagina, 100)
		if err != nil || len(p.Posiciones) == 0 {
			t.Fatalf("page %d of version %d: %v (%d rows)", pagina, tabla.ID, err, len(p.Posiciones))
		}
		rows = append(rows, p.Posiciones...)
	}
	return rows
}
