package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"prode/platform/testenv"
)

// TestPostgresOutage runs the real players binary on a PostgreSQL cluster of its own while
// eight signed-in players rename themselves over and over, asking for their session between
// two renames; it kills PostgreSQL for PGDOWN_SECONDS (5 in `make test`, 30 in `make soak`)
// and starts it again (testenv.PostgresOutage: every answer a 2xx or, while PostgreSQL is
// down, a 503 in the API's shape within 2 s; answers again within 10 s of its return; the
// process never exits). Then each player's stored name is the last one acknowledged, or the
// one attempted after it (a rename whose commit reached PostgreSQL as it went down).
func TestPostgresOutage(t *testing.T) {
	const workers = 8
	cluster := testenv.UseOwnCluster(t)
	db := testenv.NewDB(t)
	players := testenv.SignInPlayers(t, db, workers)
	svc := startPlayers(t, db, "RENAME_RATE=10000/s", "RENAME_BURST=10000")

	// An even i renames player w to name(w, i); the odd i after it asks for the session.
	name := func(w, i int) string { return fmt.Sprintf("Jugador %d vuelta %d", w, i/2) }
	lastAcked := make([]int, workers)
	for w := range lastAcked {
		lastAcked[w] = -1
	}
	testenv.PostgresOutage(t, cluster, svc, testenv.OutageLoad{
		Workers: workers,
		Request: func(w, i int) *http.Request {
			req, _ := http.NewRequest(http.MethodGet, svc.URL("/api/sesion"), nil)
			if i%2 == 0 {
				body, _ := json.Marshal(map[string]string{"nombre": name(w, i), "email": players[w].Email})
				req, _ = http.NewRequest(http.MethodPost, svc.URL("/api/jugadores"), bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
			}
			req.AddCookie(players[w].Cookie)
			return req
		},
		Acked: func(w, i int) {
			if i%2 == 0 {
				lastAcked[w] = i
			}
		},
	}, testenv.OutageLimits{Answer: 2 * time.Second, Resume: 10 * time.Second})

	check := db.AdminPool(t)
	renames := 0
	for w, last := range lastAcked {
		if last < 0 {
			t.Errorf("player %d: no rename acknowledged", w)
			continue
		}
		renames += last/2 + 1
		var stored string
		if err := check.QueryRow(context.Background(), `SELECT nombre FROM players.jugadores WHERE id = $1`, players[w].ID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored != name(w, last) && stored != name(w, last+2) {
			t.Errorf("player %d: last rename acknowledged %q, stored %q", w, name(w, last), stored)
		}
	}
	t.Logf("acknowledged renames %d; every player's stored name is its last acknowledged one or the next", renames)
}
