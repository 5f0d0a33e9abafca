package store_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// scorerZone is the zone the scorer's tests date matchdays in.
const scorerZone = "America/Argentina/Buenos_Aires"

// scorer is what the scorer works with on a tournament: the standings and points stores on the
// scoring role's pool, the matchdays dated in scorerZone as the scorer does at start.
type scorer struct {
	torneo    int64
	pool      *pgxpool.Pool
	standings *store.StandingsStore
	points    *store.PointsStore
}

// newScorer is the scorer of the tournament of match partido.
func newScorer(t *testing.T, e *scoringtest.Env, partido int64) scorer {
	t.Helper()
	ctx := context.Background()
	s := scorer{pool: e.DB.Pool(t, "scoring")}
	if err := e.Admin.QueryRow(ctx, `SELECT torneo_id FROM fixtures.partidos WHERE id = $1`, partido).Scan(&s.torneo); err != nil {
		t.Fatal(err)
	}
	s.standings = store.NewStandingsStore(s.pool, store.NewSnapshots(store.KeptSnapshots))
	location, err := time.LoadLocation(scorerZone)
	if err != nil {
		t.Fatal(err)
	}
	s.points = store.NewPointsStore(s.pool, location)
	if _, err := s.points.DateMatchdays(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

// carryAhead carries the table to match partido's present result ahead of its points rows, as
// the scorer does (CarryAhead): the table it published and whether it did. rowsWritten lets go
// of the carry's hold on the rows, once they are written; calling it again does nothing, and
// neither does calling it when the table was not carried.
func (s scorer) carryAhead(ctx context.Context, partido int64) (carried store.Tabla, ok bool, rowsWritten func(), err error) {
	done, err := s.standings.CarryAhead(ctx, s.torneo, []int64{partido}, "noventa", scorerZone, nil,
		func(t store.Tabla) { carried = t })
	if done == nil {
		return carried, false, func() {}, err
	}
	return carried, true, sync.OnceFunc(done), err
}

// players registers n players, named 'Jugador 1' to 'Jugador n'.
func players(e *scoringtest.Env, n int) {
	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre)
	        SELECT 'sub' || i, 'j' || i || '@example.com', 'Jugador ' || i FROM generate_series(1, $1) i`, n)
}

// predictMost has every player predict most of partidos (each one they have not predicted),
// from few distinct scores: many ties.
func predictMost(e *scoringtest.Env, partidos ...int64) {
	e.Exec(`INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
	        SELECT j.id, j.email, p, (j.id * 7 + p) % 4, (j.id * 3 + p * 5) % 3
	          FROM players.jugadores j, unnest($1::bigint[]) p
	         WHERE (j.id + p) % 6 <> 0
	        ON CONFLICT (jugador_id, partido_id) DO NOTHING`, partidos)
}

// carryAndScore does what the scorer does with outbox events eventos of match partido: carry
// the table ahead when it can, then write the points rows, then rank the table from the totals
// when it could not. It fails the test, naming step, when whether it carried is not
// wantCarried, or when the table it published is not, row by row, the one ranked from the
// totals once the rows are written.
func (s scorer) carryAndScore(t *testing.T, step string, partido int64, eventos []int64, wantCarried bool) {
	t.Helper()
	ctx := context.Background()
	carried, ok, rowsWritten, err := s.carryAhead(ctx, partido)
	if err == nil {
		_, err = s.points.ScoreMatches(ctx, []int64{partido}, "noventa", eventos)
	}
	rowsWritten() // before failing: the test's pools close only once every connection is back
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if ok != wantCarried {
		t.Errorf("%s: carried %v, want %v", step, ok, wantCarried)
	}
	if !ok {
		if carried, err = s.standings.Build(ctx, s.torneo, true, scorerZone); err != nil {
			t.Fatal(err)
		}
	}
	s.sameAsTheTotals(t, step, carried)
}

// sameAsTheTotals fails the test, naming step, when snapshot tabla is not, row by row, the
// table ranked from the totals now.
func (s scorer) sameAsTheTotals(t *testing.T, step string, tabla store.Tabla) {
	t.Helper()
	fromTotals, err := s.standings.Build(context.Background(), s.torneo, true, scorerZone)
	if err != nil {
		t.Fatal(err)
	}
	// Read through a replica that built neither, so both are decoded from PostgreSQL.
	replica := store.NewStandingsStore(s.pool, store.NewSnapshots(store.KeptSnapshots))
	got, want := wholeTable(t, replica, tabla), wholeTable(t, replica, fromTotals)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the table differs from the one ranked from the totals:\n got %v\nwant %v", step, got, want)
	}
}

// Two replicas hear the same result: the second, which waited for the first's lock on the
// match, finds its events applied and does not write the rows again (at two million players,
// tens of seconds of the database's time).
func TestEventsAppliedByAnotherScorerAreNotScoredAgain(t *testing.T) {
	e := scoringtest.New(t)
	ctx := context.Background()
	partido := e.Match("Grupo A", "ARG", "FRA", time.Now().Add(-48*time.Hour))
	players(e, 20)
	predictMost(e, partido)
	s := newScorer(t, e, partido)
	evento := e.SetResult(partido, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1})
	if torneos, err := s.points.ScoreMatches(ctx, []int64{partido}, "noventa", []int64{evento}); err != nil || len(torneos) != 1 {
		t.Fatalf("first scorer: %v, %v", torneos, err)
	}
	// A mark only a rewrite of the rows would erase.
	e.Exec(`UPDATE scoring.puntos SET puntos = 99 WHERE partido_id = $1`, partido)
	torneos, err := s.points.ScoreMatches(ctx, []int64{partido}, "noventa", []int64{evento})
	if err != nil || len(torneos) != 0 {
		t.Fatalf("second scorer: tournaments %v (want none: nothing changed), %v", torneos, err)
	}
	var rewritten int
	if err := e.Admin.QueryRow(ctx, `SELECT count(*) FROM scoring.puntos WHERE partido_id = $1 AND puntos <> 99`, partido).Scan(&rewritten); err != nil {
		t.Fatal(err)
	}
	if rewritten != 0 {
		t.Errorf("%d points rows written again for events already applied", rewritten)
	}
	// Without events (a rescore), the rows are computed anew.
	if _, err := s.points.ScoreMatches(ctx, []int64{partido}, "noventa", nil); err != nil {
		t.Fatal(err)
	}
	if err := e.Admin.QueryRow(ctx, `SELECT count(*) FROM scoring.puntos WHERE partido_id = $1 AND puntos = 99`, partido).Scan(&rewritten); err != nil || rewritten != 0 {
		t.Errorf("a rescore left %d rows of 99 points (%v)", rewritten, err)
	}
}
