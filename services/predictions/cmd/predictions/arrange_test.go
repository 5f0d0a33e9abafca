package main_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
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
	sc := writeScenario{db: db, matches: openMatches(t, db, torneo, n), players: signedInPlayers(t, db, writers)}
	url := db.URL("predictions")
	if via != nil {
		url = via(url)
	}
	sc.svc = testenv.Start(t, testenv.Build(t, "."), "DATABASE_URL="+url, "WRITE_RATE=10000/s", "WRITE_BURST=10000")
	return sc
}

// openMatches inserts n matches of torneo that take predictions for two more days, and
// returns their ids.
func openMatches(t testing.TB, db *testenv.DB, torneo string, n int) []int64 {
	t.Helper()
	admin := db.AdminPool(t)
	defer admin.Close() // the caller's scenario may stop PostgreSQL: no connection of ours in it
	ctx := context.Background()
	if _, err := admin.Exec(ctx, `INSERT INTO fixtures.equipos VALUES ('ARG','Argentina','ar'), ('FRA','Francia','fr') ON CONFLICT DO NOTHING`); err != nil {
		t.Fatal(err)
	}
	rows, err := admin.Query(ctx, `
		INSERT INTO fixtures.partidos (torneo, numero, categoria, local, visitante, inicio)
		SELECT $1, n, 'Grupo A', 'ARG', 'FRA', now() + interval '2 days' FROM generate_series(1, $2) n
		RETURNING id`, torneo, n)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// signedInPlayers signs in n players, p0@prode.test and on.
func signedInPlayers(t testing.TB, db *testenv.DB, n int) []testenv.Player {
	t.Helper()
	players := make([]testenv.Player, n)
	for w := range players {
		players[w] = testenv.SignIn(t, db, fmt.Sprintf("p%d@prode.test", w), fmt.Sprintf("P%d", w), false)
	}
	return players
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
