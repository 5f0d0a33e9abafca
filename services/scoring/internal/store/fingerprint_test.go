package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// A result deleted after its match's cut-off, whose predictions are still the ones its points
// rows were computed from (their fingerprints agree), is carried from the predictions alone:
// the carry ends while another transaction holds scoring.puntos locked. Once predictions of
// the match changed after a deletion (it reopened betting), the next deletion's carry
// subtracts the rows themselves, and waits for that lock. Both tables equal the one ranked
// from the totals.
func TestADeletionIsCarriedFromThePredictionsWhileTheyAreTheRowsOnes(t *testing.T) {
	e, s, m1, m2 := twoPredictedMatchdays(t)
	s.enterBoth(t, e, m1, m2)

	deleted := e.DeleteResult(m1)
	carried, ok, err := s.carryWithPointsLocked(t, e, m1, []int64{deleted}, 20*time.Second)
	if err != nil || !ok {
		t.Fatalf("a deletion after the cut-off, scoring.puntos locked: carried %v, %v; want carried without reading the rows", ok, err)
	}
	s.sameAsTheTotals(t, "deleted, carried from the predictions", carried)

	s.carryAndScore(t, "m1 entered again", m1, []int64{e.SetResult(m1, scoringtest.Result{GolesLocal: 0, GolesVisitante: 1})}, true)
	deleted = e.DeleteResult(m1)
	e.Exec(`UPDATE predictions.apuestas SET goles_local = 0, goles_visitante = 1 WHERE partido_id = $1 AND jugador_id % 5 = 0`, m1)
	if _, _, err := s.carryWithPointsLocked(t, e, m1, []int64{deleted}, 2*time.Second); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a deletion whose predictions changed, scoring.puntos locked: %v, want it to wait for the rows (deadline exceeded)", err)
	}
	s.carryAndScore(t, "deleted, predictions changed, the rows subtracted", m1, []int64{deleted}, true)
}

// A carry that read other predictions than the points rows were then computed from (a
// prediction saved as the organiser entered a result before the cut-off, committed between the
// two reads) publishes a table that is not the totals'. The fingerprints show it: its rows do
// not agree with it, a starting process does not keep it, and the next change is not carried
// on top of it but ranked from the totals.
func TestATableCarriedFromOtherPredictionsThanItsRowsIsNotCarriedOn(t *testing.T) {
	e, s, m1, m2 := twoPredictedMatchdays(t)
	ctx := context.Background()

	entered := e.SetResult(m1, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1})
	carried, ok, rowsWritten, err := s.carryAhead(ctx, m1)
	if err == nil {
		e.Exec(`UPDATE predictions.apuestas SET goles_local = 2, goles_visitante = 1 WHERE partido_id = $1 AND jugador_id % 7 = 0`, m1)
		_, err = s.points.ScoreMatches(ctx, []int64{m1}, "noventa", []int64{entered})
	}
	rowsWritten()
	if err != nil || !ok {
		t.Fatalf("m1 entered: carried %v, %v", ok, err)
	}

	if agree, err := s.standings.RowsAgree(ctx, s.torneo, carried.ID, scorerZone); err != nil || agree {
		t.Errorf("the rows agree with a table carried from other predictions: %v, %v", agree, err)
	}
	if _, upToDate, err := s.standings.UpToDate(ctx, s.torneo, true, scorerZone); err != nil || upToDate {
		t.Errorf("a table carried from other predictions is up to date: %v, %v", upToDate, err)
	}
	s.carryAndScore(t, "the next result", m2, []int64{e.SetResult(m2, scoringtest.Result{})}, false)
}

// twoPredictedMatchdays is a tournament of two matches on consecutive days, each predicted by
// most of 200 players, its table ranked: the test's database, the tournament's scorer and the
// two matches.
func twoPredictedMatchdays(t *testing.T) (e *scoringtest.Env, s scorer, m1, m2 int64) {
	t.Helper()
	e = scoringtest.New(t)
	m1 = e.Match("Grupo A", "ARG", "FRA", scoringtest.NoonDaysAgo(t, 3))
	m2 = e.Match("Grupo A", "CRO", "MAR", scoringtest.NoonDaysAgo(t, 2))
	players(e, 200)
	predictMost(e, m1, m2)
	s = newScorer(t, e, m1)
	if _, err := s.standings.Build(context.Background(), s.torneo, true, scorerZone); err != nil {
		t.Fatal(err)
	}
	return e, s, m1, m2
}

// enterBoth enters the two matches' results, 2-1 and 1-1, each carried and scored.
func (s scorer) enterBoth(t *testing.T, e *scoringtest.Env, m1, m2 int64) {
	t.Helper()
	s.carryAndScore(t, "m1 entered", m1, []int64{e.SetResult(m1, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1})}, true)
	s.carryAndScore(t, "m2 entered", m2, []int64{e.SetResult(m2, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1})}, true)
}

// carryWithPointsLocked carries events eventos of match partido, as the scorer does, while
// another transaction holds scoring.puntos in ACCESS EXCLUSIVE mode, giving the carry within to
// end; then, unless the carry failed, it writes the points rows.
func (s scorer) carryWithPointsLocked(t *testing.T, e *scoringtest.Env, partido int64, eventos []int64, within time.Duration) (store.Tabla, bool, error) {
	t.Helper()
	ctx := context.Background()
	lock, err := e.Admin.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(ctx, `LOCK TABLE scoring.puntos IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	limited, cancel := context.WithTimeout(ctx, within)
	carried, ok, rowsWritten, carryErr := s.carryAhead(limited, partido)
	cancel()
	if err := lock.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if carryErr == nil {
		_, err = s.points.ScoreMatches(ctx, []int64{partido}, "noventa", eventos)
	}
	rowsWritten()
	if err != nil {
		t.Fatal(err)
	}
	return carried, ok, carryErr
}

// A match's fingerprint recorded by the points' SQL and the one the carry sums in Go agree past
// 2^23 predictions of the largest part, where a bigint sum leaves its range: the scoring of a
// match with 8.4 million predictions must neither fail nor have its carry compare a wrapped sum.
func TestAFingerprintOfMillionsOfPredictionsIsTheSameInSQLAndInGo(t *testing.T) {
	e := scoringtest.New(t)
	const predictions = 1<<23 + 1_000
	const largestPart = 1<<40 - 1 // scoring.huella_de is 40-bit
	var inSQL int64
	err := e.DB.Pool(t, "scoring").QueryRow(context.Background(),
		`SELECT `+store.SumOfHuellas+` FROM (SELECT $1::bigint AS huella FROM generate_series(1, $2)) p`,
		largestPart, predictions).Scan(&inSQL)
	if err != nil {
		t.Fatalf("the SQL's fingerprint of %d predictions: %v", predictions, err)
	}
	var inGo int64
	for range predictions {
		inGo = store.AddHuella(inGo, largestPart)
	}
	if inSQL != inGo || inGo < 0 {
		t.Fatalf("fingerprint of %d predictions: %d in SQL, %d in Go; want the same, not negative", predictions, inSQL, inGo)
	}
}
