package scoring_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"prode/scoring/internal/scoring"
	"prode/scoring/internal/scoringtest"
)

// While a result's points rows are being written (tens of seconds at two million players), the
// next results are carried into the table and published without waiting for them: a
// correction of that same match, and another match's result. Each table published meanwhile
// is the recomputation of the results so far, and once the rows are written so are the points,
// the totals and the table.
func TestTheNextResultsAreCarriedWhileTheRowsAreWritten(t *testing.T) {
	e := scoringtest.New(t)
	ctx := context.Background()
	kickoff := scoringtest.NoonDaysAgo(t, 2)
	first := e.Match("Grupo A", "ARG", "FRA", kickoff)
	second := e.Match("Grupo B", "CRO", "MAR", kickoff.Add(2*time.Hour))
	matches := []match{{id: first}, {id: second}}
	predictions := map[scoringtest.Key]prediction{}
	for i, name := range []string{"ana", "beto", "caro", "dani"} {
		p := e.Player(name)
		for j, m := range matches {
			pr := prediction{(i + j) % 3, (i * (j + 1)) % 3}
			e.Predict(p, m.id, pr.local, pr.visitante)
			predictions[scoringtest.Key{Partido: m.id, Jugador: p.ID}] = pr
		}
	}
	app := e.NewApp(scoringtest.Options{})
	results := map[int64]scoringtest.Result{first: {GolesLocal: 2, GolesVisitante: 1}}
	e.SetResult(first, results[first])
	app.Score(t)

	hold := holdRowsBack(t, e)
	scored := make(chan error, 1)
	for i, change := range []struct {
		what    string
		partido int64
		result  scoringtest.Result
	}{
		{"the second match's result, its rows held back", second, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1}},
		{"a correction of the second match while its rows are in flight", second, scoringtest.Result{GolesLocal: 0, GolesVisitante: 2}},
		{"a correction of the first match meanwhile", first, scoringtest.Result{GolesLocal: 1, GolesVisitante: 0}},
	} {
		results[change.partido] = change.result
		e.SetResult(change.partido, change.result)
		if i == 0 { // one pass: it goes on carrying while the rows it carried are written
			go func() { _, err := app.Scoring.ProcessPending(ctx); scored <- err }()
		}
		want := scoringtest.Totals(expectedPoints(matches, predictions, results, scoring.Noventa))
		scoringtest.Eventually(t, 10*time.Second, func() string {
			if got := publishedTotals(t, app); !maps.Equal(got, want) {
				return change.what + ": the published table is not the recomputation"
			}
			return ""
		})
	}
	if pending := pendingEvents(t, e); pending == 0 {
		t.Fatal("every event was applied while the rows were held back: the test holds nothing")
	}

	if err := hold.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-scored; err != nil {
		t.Fatal(err)
	}
	want := expectedPoints(matches, predictions, results, scoring.Noventa)
	if got := e.StoredPoints(); !maps.Equal(got, want) {
		t.Fatalf("points\n got %v\nwant %v", got, want)
	}
	if got, want := e.StoredTotals(), scoringtest.Totals(want); !maps.Equal(got, want) {
		t.Fatalf("totals\n got %v\nwant %v", got, want)
	}
	tableEqualsRecomputation(t, e, scoringtest.Totals(want))
	if n := pendingEvents(t, e); n != 0 {
		t.Errorf("%d events left pending", n)
	}
	if built := app.Metric(t, "prode_standings_snapshots_total", "how", "totals"); built > 1 {
		t.Errorf("%v tables ranked from the totals, want only the first: every change is carried", built)
	}
}

// publishedTotals reads the whole table as app publishes it, by player.
func publishedTotals(t *testing.T, app *scoringtest.App) map[int64]scoringtest.Row {
	t.Helper()
	totals := map[int64]scoringtest.Row{}
	for _, r := range page(t, app, "/api/posiciones?por_pagina=100").Posiciones {
		if r.Puntaje != 0 || r.Exactos != 0 || r.Aciertos != 0 {
			totals[r.ID] = scoringtest.Row{Puntos: int(r.Puntaje), Exactos: int(r.Exactos), Aciertos: int(r.Aciertos)}
		}
	}
	return totals
}
