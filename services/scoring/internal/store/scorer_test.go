package store_test

import (
	"context"
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

// players registers n players, named 'Jugador 1' to 'Jugador n'.
func players(e *scoringtest.Env, n int) {
	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre)
	        SELECT 'sub' || i, 'j' || i || '@example.com', 'Jugador ' || i FROM generate_series(1, $1) i`, n)
}
