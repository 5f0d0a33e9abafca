package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// A matchday's table kept for the boards (MatchdayTableAt: read once, then found and read in
// memory) is the one the SQL ranks on each request (MatchdayLocate, MatchdayRows): the same
// filas, ranks (ties share one) and numbers, for every player of two matchdays of 200
// players' real points rows, players who scored nothing that day and filas outside the table
// included. While a carried result's points rows are not written it is not read (the day's
// totals are then an earlier table's); once they are, it is the new one.
func TestAKeptMatchdayTableRanksAsTheSQL(t *testing.T) {
	e, s, m1, m2 := twoPredictedMatchdays(t)
	s.enterBoth(t, e, m1, m2)
	ctx := context.Background()
	var ids []int64
	var days []time.Time
	var tabla int64
	err := e.Admin.QueryRow(ctx, `
		SELECT (SELECT array_agg(id) || 999999::bigint FROM players.jugadores),
		       (SELECT array_agg(DISTINCT fecha ORDER BY fecha) FROM scoring.totales_fecha),
		       (SELECT max(id) FROM scoring.tablas_compactas WHERE torneo_id = $1)`, s.torneo).Scan(&ids, &days, &tabla)
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 2 || len(ids) != 201 {
		t.Fatalf("%d matchdays and %d players, want 2 and 201", len(days), len(ids))
	}
	for _, day := range days {
		kept := sameAsTheSQL(t, s, tabla, day, ids)
		if ranks := distinctRanks(t, kept); kept.Len() < 50 || ranks < 2 || ranks == kept.Len() {
			t.Errorf("matchday %s: %d rows, %d ranks: want at least 50 rows, ties and more than one rank",
				day.Format(time.DateOnly), kept.Len(), ranks)
		}
	}
	// A day of several matches: players tied on points, told apart by exact hits and right
	// outcomes, share their rank.
	busy := time.Date(2026, 6, 20, 0, 0, 0, 0, time.UTC)
	e.Exec(`INSERT INTO scoring.totales_fecha (torneo_id, fecha, jugador_id, puntaje, exactos, aciertos)
	        SELECT $1, $2, id, id % 5, id % 3, (id / 3) % 2 FROM players.jugadores`, s.torneo, busy)
	if rows := allRows(t, sameAsTheSQL(t, s, tabla, busy, ids)); tieBreaks(rows) == 0 {
		t.Errorf("matchday %s: no tie broken by exact hits or right outcomes in %v", busy.Format(time.DateOnly), rows)
	}

	corrected := []int64{e.SetResult(m2, scoringtest.Result{GolesLocal: 0, GolesVisitante: 1})}
	carried, ok, rowsWritten, err := s.carryAhead(ctx, m2)
	defer rowsWritten() // on failure; once the rows are written, at once
	if err != nil || !ok {
		t.Fatalf("the correction was not carried: %v, %v", ok, err)
	}
	before := sameAsTheSQL(t, s, tabla, days[1], ids)
	if _, ok, err := s.standings.MatchdayTableAt(ctx, s.torneo, carried.ID, scorerZone, days[1]); err != nil || ok {
		t.Fatalf("matchday read at a snapshot ahead of its points rows: %v, %v", ok, err)
	}
	if _, err := s.points.ScoreMatches(ctx, []int64{m2}, "noventa", corrected); err != nil {
		t.Fatal(err)
	}
	rowsWritten()
	after := sameAsTheSQL(t, s, carried.ID, days[1], ids)
	if reflect.DeepEqual(allRows(t, before), allRows(t, after)) {
		t.Error("the corrected result did not change the matchday's table")
	}
}

// sameAsTheSQL reads matchday day at snapshot tabla as the boards keep it, through a replica
// that read nothing before, and fails the test unless it finds every one of ids and reads
// every fila as the SQL does.
func sameAsTheSQL(t *testing.T, s scorer, tabla int64, day time.Time, ids []int64) *store.MatchdayTable {
	t.Helper()
	ctx := context.Background()
	replica := store.NewStandingsStore(s.pool, store.NewSnapshots(store.KeptSnapshots))
	kept, ok, err := replica.MatchdayTableAt(ctx, s.torneo, tabla, scorerZone, day)
	if err != nil || !ok {
		t.Fatalf("matchday %s not read at snapshot %d: %v, %v", day.Format(time.DateOnly), tabla, ok, err)
	}
	total, filas, err := s.standings.MatchdayLocate(ctx, s.torneo, day, ids)
	if err != nil {
		t.Fatal(err)
	}
	if gotTotal, got := kept.Locate(ids); gotTotal != total || !reflect.DeepEqual(got, filas) {
		t.Fatalf("matchday %s: kept %d rows, filas %v\nSQL %d rows, filas %v", day.Format(time.DateOnly), gotTotal, got, total, filas)
	}
	every := make([]int64, total+3) // 0 and two past the end: left out by both
	for i := range every {
		every[i] = int64(i)
	}
	want, err := s.standings.MatchdayRows(ctx, s.torneo, day, every)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := kept.Rows(ctx, every); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("matchday %s: kept rows (%v)\n %v\nSQL rows\n %v", day.Format(time.DateOnly), err, got, want)
	}
	return kept
}

// allRows reads every row of t.
func allRows(t *testing.T, kept *store.MatchdayTable) []store.Fila {
	t.Helper()
	every := make([]int64, kept.Len())
	for i := range every {
		every[i] = int64(i) + 1
	}
	rows, err := kept.Rows(context.Background(), every)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// distinctRanks counts the ranks kept's rows have.
func distinctRanks(t *testing.T, kept *store.MatchdayTable) int64 {
	t.Helper()
	ranks := map[int64]bool{}
	for _, r := range allRows(t, kept) {
		ranks[r.Posicion.Posicion] = true
	}
	return int64(len(ranks))
}

// tieBreaks counts the rows that share the previous row's rank with other exact hits or right
// outcomes.
func tieBreaks(rows []store.Fila) int {
	n := 0
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1].Posicion, rows[i].Posicion
		if a.Posicion == b.Posicion && (a.Exactos != b.Exactos || a.Aciertos != b.Aciertos) {
			n++
		}
	}
	return n
}
