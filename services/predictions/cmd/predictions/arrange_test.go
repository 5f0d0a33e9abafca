package main_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/testenv"
)

// writeScenario is where the load tests start: the real binary, on a fresh database with open
// matches and one signed-in player per writer.
type writeScenario struct {
	db      *testenv.DB
	matches []int64 // their ids
	players []testenv.Player
	svc     *testenv.Binary
}

// startWriteScenario builds and starts the binary on a fresh database (the cluster that
// PRODE_TEST_PG_ADMIN_URL names) with n open matches of torneo and writers signed-in players.
// Its rate limit is out of the way: the scenarios are outages and shutdowns, not the limit.
// via, when not nil, is the way to the database the binary is given (PgBouncer's URL).
func startWriteScenario(t testing.TB, torneo string, n, writers int, via func(string) string) writeScenario {
	t.Helper()
	db := testenv.NewDB(t)
	sc := writeScenario{db: db, matches: testenv.InsertMatches(t, db, torneo, n, 48*time.Hour),
		players: testenv.SignInPlayers(t, db, writers)}
	url := db.URL("predictions")
	if via != nil {
		url = via(url)
	}
	sc.svc = testenv.Start(t, testenv.Build(t, "."), "DATABASE_URL="+url, "WRITE_RATE=10000/s", "WRITE_BURST=10000")
	return sc
}

// storedScores is the local goals of each of the player's predictions as stored, by match.
func storedScores(t testing.TB, admin *pgxpool.Pool, p testenv.Player) map[int64]int {
	t.Helper()
	rows, err := admin.Query(context.Background(), `SELECT partido_id, goles_local FROM predictions.apuestas WHERE jugador_id = $1`, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	stored := map[int64]int{}
	for rows.Next() {
		var match int64
		var local int
		if err := rows.Scan(&match, &local); err != nil {
			t.Fatal(err)
		}
		stored[match] = local
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return stored
}
