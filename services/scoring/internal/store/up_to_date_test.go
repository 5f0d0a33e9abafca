package store_test

import (
	"context"
	"testing"
	"time"

	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// A process that starts keeps the newest snapshot only when it is the table a build would rank
// now (UpToDate): after a build and after a carry whose points rows were written, yes; after a
// sign-up, points rows written without a snapshot (a process stopped between the two), totals
// that moved with the same scores counted (a bonus answer), matchdays dated in another zone,
// or a snapshot of the previous release, no. Whether the points rows agree with a snapshot
// (RowsAgree, which a matchday's answers ask) is checked at the same steps.
func TestUpToDateOnlyWhenABuildWouldRankTheSameTable(t *testing.T) {
	e := scoringtest.New(t)
	ctx := context.Background()
	zone := scorerZone
	m1 := e.Match("Grupo A", "ARG", "FRA", scoringtest.NoonDaysAgo(t, 3))
	m2 := e.Match("Grupo A", "CRO", "MAR", scoringtest.NoonDaysAgo(t, 2))
	players(e, 40)
	e.Exec(`INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
	        SELECT j.id, j.email, p, (j.id * 7 + p) % 4, (j.id * 3 + p) % 3
	          FROM players.jugadores j, unnest($1::bigint[]) p`, []int64{m1, m2})
	s := newScorer(t, e, m1)
	torneo, pool, standings, points := s.torneo, s.pool, s.standings, s.points
	// check asks a replica that built nothing (the snapshot decoded from PostgreSQL).
	check := func(step string, want bool, newest store.Tabla) {
		t.Helper()
		replica := store.NewStandingsStore(pool, store.NewSnapshots(store.KeptSnapshots))
		got, upToDate, err := replica.UpToDate(ctx, torneo, true, zone)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if upToDate != want || upToDate && got != newest {
			t.Fatalf("%s: up to date %v (%+v), want %v (%+v)", step, upToDate, got, want, newest)
		}
	}
	// agrees asks a replica whether the points rows count what snapshot tabla counts (RowsAgree).
	agrees := func(step string, want bool, tabla store.Tabla) {
		t.Helper()
		replica := store.NewStandingsStore(pool, store.NewSnapshots(store.KeptSnapshots))
		if got, err := replica.RowsAgree(ctx, torneo, tabla.ID, zone); err != nil || got != want {
			t.Fatalf("%s: the rows agree with snapshot %d: %v (%v), want %v", step, tabla.ID, got, err, want)
		}
	}
	build := func() store.Tabla {
		t.Helper()
		tabla, err := standings.Build(ctx, torneo, true, zone)
		if err != nil {
			t.Fatal(err)
		}
		return tabla
	}
	score := func(partido, evento int64) {
		t.Helper()
		if _, err := points.ScoreMatches(ctx, []int64{partido}, "noventa", []int64{evento}); err != nil {
			t.Fatal(err)
		}
	}

	check("no snapshot yet", false, store.Tabla{})
	tabla := build()
	check("just built", true, tabla)
	agrees("just built", true, tabla)
	agrees("another tournament's snapshot id", false, store.Tabla{ID: tabla.ID + 1000})

	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ('late', 'late@example.com', 'Tarde')`)
	check("a player signed up since", false, tabla)
	tabla = build()
	check("built again", true, tabla)

	score(m1, e.SetResult(m1, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1}))
	check("points rows written, no snapshot of them", false, tabla)
	agrees("points rows written, no snapshot of them", false, tabla)
	tabla = build()
	check("built with the result", true, tabla)
	agrees("built with the result", true, tabla)

	// The scorer's way: carried ahead, then the rows.
	evento := e.SetResult(m2, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1})
	carried, ok, rowsWritten, err := s.carryAhead(ctx, m2)
	if err == nil {
		check("carried, its rows not written yet", false, tabla)
		agrees("carried, its rows not written yet", false, carried)
		_, err = points.ScoreMatches(ctx, []int64{m2}, "noventa", []int64{evento})
	}
	rowsWritten()
	if err != nil || !ok {
		t.Fatalf("carry: %v (carried %v)", err, ok)
	}
	check("carried, then its rows written", true, carried)
	agrees("carried, then its rows written", true, carried)

	e.Exec(`UPDATE scoring.totales_torneo SET puntaje = puntaje + 3, bonus = bonus + 3
	         WHERE torneo_id = $1 AND jugador_id = (SELECT min(id) FROM players.jugadores)`, torneo)
	check("a player's totals moved, the same scores counted", false, carried)
	tabla = build()
	check("built with them", true, tabla)

	// A start in another zone dates the matchday totals again.
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.NewPointsStore(pool, madrid).DateMatchdays(ctx); err != nil {
		t.Fatal(err)
	}
	check("the matchdays dated in another zone since", false, tabla)
	if _, err := points.DateMatchdays(ctx); err != nil {
		t.Fatal(err)
	}
	tabla = build()
	check("dated back and built", true, tabla)

	e.Exec(`UPDATE scoring.tablas_compactas SET contados = NULL WHERE id = $1`, tabla.ID)
	check("the previous release's snapshot", false, tabla)
	agrees("the previous release's snapshot (ranked from the totals)", true, tabla)
}
