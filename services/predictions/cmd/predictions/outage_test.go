package main_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"prode/platform/testenv"
)

// TestPostgresOutage runs the real predictions binary against a PostgreSQL cluster of its own,
// keeps steady authenticated prediction writes on it, kills PostgreSQL (pg_ctl stop -m
// immediate, like a crash or a failover) for PGDOWN_SECONDS (5 in `make test`, 30 in `make
// soak`), starts it again, and checks:
//   - while it is down every answer is a 503 JSON servicio_no_disponible with Retry-After, within 2 s;
//   - the process never exits and every request gets an HTTP answer;
//   - writes succeed again within 10 s of PostgreSQL accepting connections;
//   - every write acknowledged with 2xx, before, during or after, is in the database afterwards.
func TestPostgresOutage(t *testing.T) {
	cluster := testenv.UseOwnCluster(t)
	postgresOutage(t, cluster, nil, testenv.OutageLimits{Answer: 2 * time.Second, Resume: 10 * time.Second})
}

// TestPostgresOutageThroughPgBouncer is the same outage with the binary behind PgBouncer, as
// the chart runs it with pgbouncer.enabled. There a query on a connection the service keeps
// open to PgBouncer waits for a server connection until query_wait_timeout, and fails then
// with 08P01, which must be the same 503; a new connection is refused at once while logins to
// PostgreSQL fail, and PgBouncer tries one again every server_login_retry, so writes resume
// within that of PostgreSQL's return. The scenario's query wait (2 s) is shorter than the
// chart's 10 s, so that the 5 s outage outlasts it; its login retry is the chart's 2 s.
func TestPostgresOutageThroughPgBouncer(t *testing.T) {
	cluster := testenv.UseOwnCluster(t)
	settings := testenv.PgBouncerSettings{QueryWait: 2 * time.Second, LoginRetry: 2 * time.Second}
	bouncer := testenv.NewPgBouncer(t, cluster, settings, "predictions")
	postgresOutage(t, cluster, bouncer.URL, testenv.OutageLimits{Answer: settings.QueryWait + 2*time.Second, Resume: 10 * time.Second})
}

// postgresOutage is the scenario of TestPostgresOutage (testenv.PostgresOutage): eight players
// predict match after match, each prediction its own write; the binary's database is reached
// through via (nil: directly). Afterwards every prediction acknowledged with a 2xx, before,
// during or after the outage, must be stored with its score.
func postgresOutage(t *testing.T, cluster *testenv.Cluster, via func(string) string, limits testenv.OutageLimits) {
	const workers, matches = 8, 4000
	sc := startWriteScenario(t, "Outage", matches, workers, via)
	acked := make([][]int, workers) // the matches (indexes) each player's acknowledged writes were for
	testenv.PostgresOutage(t, cluster, sc.svc, testenv.OutageLoad{
		Workers: workers,
		Request: func(w, i int) *http.Request {
			body, _ := json.Marshal(map[string]any{"partido": sc.matches[i], "goles_local": i % 100, "goles_visitante": w})
			req, _ := http.NewRequest("POST", sc.svc.URL("/api/jugadores/"+sc.players[w].Email+"/apuestas"), bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.AddCookie(sc.players[w].Cookie)
			return req
		},
		Acked: func(w, i int) { acked[w] = append(acked[w], i) },
	}, limits)

	// Every acknowledged write is stored with the acknowledged score.
	check := sc.db.AdminPool(t)
	var nAcked, nStored int
	for w, list := range acked {
		nAcked += len(list)
		stored := storedScores(t, check, sc.players[w])
		for _, i := range list {
			if l, ok := stored[sc.matches[i]]; ok && l == i%100 {
				nStored++
			}
		}
	}
	if nStored != nAcked {
		t.Errorf("%d writes acknowledged, %d of them in the database", nAcked, nStored)
	}
	t.Logf("acknowledged writes %d, stored %d, lost %d; the process never exited", nAcked, nStored, nAcked-nStored)
}
