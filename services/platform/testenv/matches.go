package testenv

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// InsertMatches inserts n matches of Argentina and France in torneo, numbered 1 to n, all kicking
// off startsIn from now (negative: played already), and returns their ids. Its connection is
// closed before it returns: an outage scenario may stop PostgreSQL next.
func InsertMatches(t testing.TB, db *DB, torneo string, n int, startsIn time.Duration) []int64 {
	t.Helper()
	admin := db.AdminPool(t)
	defer admin.Close()
	ctx := context.Background()
	if _, err := admin.Exec(ctx, `INSERT INTO fixtures.equipos VALUES ('ARG','Argentina','ar'), ('FRA','Francia','fr') ON CONFLICT DO NOTHING`); err != nil {
		t.Fatal(err)
	}
	rows, err := admin.Query(ctx, `
		INSERT INTO fixtures.partidos (torneo, numero, categoria, local, visitante, inicio)
		SELECT $1, n, 'Grupo A', 'ARG', 'FRA', now() + make_interval(secs => $3) FROM generate_series(1, $2) n
		RETURNING id`, torneo, n, startsIn.Seconds())
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// SignInPlayers signs in n players, p0@prode.test (named P0) and on.
func SignInPlayers(t testing.TB, db *DB, n int) []Player {
	t.Helper()
	players := make([]Player, n)
	for i := range players {
		players[i] = SignIn(t, db, fmt.Sprintf("p%d@prode.test", i), fmt.Sprintf("P%d", i), false)
	}
	return players
}
