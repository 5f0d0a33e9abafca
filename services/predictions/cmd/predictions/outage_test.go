package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
	cluster := testenv.NewCluster(t)
	t.Setenv("PRODE_TEST_PG_ADMIN_URL", cluster.AdminURL())
	postgresOutage(t, cluster, nil, outageLimits{answer: 2 * time.Second, resume: 10 * time.Second})
}

// TestPostgresOutageThroughPgBouncer is the same outage with the binary behind PgBouncer, as
// the chart runs it with pgbouncer.enabled. There a query on a connection the service keeps
// open to PgBouncer waits for a server connection until query_wait_timeout, and fails then
// with 08P01, which must be the same 503; a new connection is refused at once while logins to
// PostgreSQL fail, and PgBouncer tries one again every server_login_retry, so writes resume
// within that of PostgreSQL's return. The scenario's query wait (2 s) is shorter than the
// chart's 10 s, so that the 5 s outage outlasts it; its login retry is the chart's 2 s.
func TestPostgresOutageThroughPgBouncer(t *testing.T) {
	cluster := testenv.NewCluster(t)
	t.Setenv("PRODE_TEST_PG_ADMIN_URL", cluster.AdminURL())
	settings := testenv.PgBouncerSettings{QueryWait: 2 * time.Second, LoginRetry: 2 * time.Second}
	bouncer := testenv.NewPgBouncer(t, cluster, settings, "predictions")
	postgresOutage(t, cluster, bouncer.URL, outageLimits{answer: settings.QueryWait + 2*time.Second, resume: 10 * time.Second})
}

// outageLimits are how long a 503 may take while PostgreSQL is down, and how long after it is
// back the writes may take to succeed again.
type outageLimits struct{ answer, resume time.Duration }

// postgresOutage is the scenario of TestPostgresOutage, the binary's database reached through
// via (nil: directly).
func postgresOutage(t *testing.T, cluster *testenv.Cluster, via func(string) string, limits outageLimits) {
	down := testenv.Seconds(t, "PGDOWN_SECONDS", 5*time.Second)
	const workers, matches = 8, 4000
	sc := startWriteScenario(t, "Outage", matches, workers, via)

	type ack struct {
		match int64
		local int
	}
	type answer struct {
		at, took time.Duration
		status   int
		problem  string // "" when the answer is what its phase allows
	}
	var (
		mu       sync.Mutex
		answers  []answer
		acked    = make([][]ack, workers)
		stop     atomic.Bool
		begin    = time.Now()
		killedAt atomic.Int64 // since begin, ns; 0 while up
		wg       sync.WaitGroup
	)
	client := &http.Client{Timeout: 10 * time.Second}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			p := sc.players[w]
			url := sc.svc.URL("/api/jugadores/" + p.Email + "/apuestas")
			for i := 0; i < len(sc.matches) && !stop.Load(); {
				body, _ := json.Marshal(map[string]any{"partido": sc.matches[i], "goles_local": i % 100, "goles_visitante": w})
				req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.AddCookie(p.Cookie)
				start := time.Now()
				res, err := client.Do(req)
				a := answer{at: start.Sub(begin), took: time.Since(start)}
				if err != nil {
					a.problem = "no HTTP answer: " + err.Error()
				} else {
					raw, _ := io.ReadAll(res.Body)
					res.Body.Close()
					a.status = res.StatusCode
					var e struct {
						Error     string `json:"error"`
						RequestID string `json:"request_id"`
					}
					_ = json.Unmarshal(raw, &e)
					switch res.StatusCode {
					case 200, 201:
						acked[w] = append(acked[w], ack{sc.matches[i], i % 100})
						i++
					case 503:
						if e.Error != "servicio_no_disponible" || e.RequestID == "" || res.Header.Get("Retry-After") == "" ||
							res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
							a.problem = fmt.Sprintf("503 without the JSON body or Retry-After: %v %s", res.Header, raw)
						} else if a.took > limits.answer {
							a.problem = fmt.Sprintf("503 after %s", a.took)
						}
					default:
						a.problem = fmt.Sprintf("%d %s", res.StatusCode, raw)
					}
				}
				mu.Lock()
				answers = append(answers, a)
				mu.Unlock()
				if a.status != 200 && a.status != 201 {
					time.Sleep(100 * time.Millisecond) // a client backing off a little
				}
				time.Sleep(10 * time.Millisecond)
			}
		}(w)
	}

	time.Sleep(3 * time.Second)
	killed := time.Since(begin)
	killedAt.Store(int64(killed))
	cluster.Kill()
	cluster.WaitDown(5 * time.Second)
	time.Sleep(down)
	restartAt := time.Since(begin)
	cluster.Start()
	upAt := time.Since(begin) // accepting connections
	time.Sleep(12 * time.Second)
	stop.Store(true)
	wg.Wait()

	select {
	case <-sc.svc.Exited():
		err, _ := sc.svc.WaitExit(time.Second)
		t.Fatalf("the service exited during the scenario: %v\n%s", err, sc.svc.Logs())
	default:
	}

	// Figures by phase.
	sort.Slice(answers, func(i, j int) bool { return answers[i].at < answers[j].at })
	var before, during, after, ok503, problems int
	var maxDown time.Duration
	firstOKAfter := time.Duration(-1)
	for _, a := range answers {
		ok := a.status == 200 || a.status == 201
		switch {
		case a.at < killed:
			if ok {
				before++
			}
		case a.at+a.took < upAt:
			if ok {
				during++
			}
			if a.status == 503 {
				ok503++
				if a.took > maxDown {
					maxDown = a.took
				}
			}
		default:
			if ok {
				after++
				if firstOKAfter < 0 {
					firstOKAfter = a.at + a.took - upAt
				}
			}
		}
		if a.problem != "" {
			problems++
			if problems <= 10 {
				t.Errorf("at %s (took %s): %s", a.at.Round(time.Millisecond), a.took.Round(time.Millisecond), a.problem)
			}
		}
	}
	if problems > 0 {
		for _, line := range strings.Split(sc.svc.ErrorLogs(), "\n") {
			if line != "" && !strings.Contains(line, "servicio_no_disponible") {
				t.Logf("service log: %s", line)
			}
		}
	}
	if ok503 == 0 {
		t.Error("no 503 while PostgreSQL was down")
	}
	if firstOKAfter < 0 || firstOKAfter > limits.resume {
		t.Errorf("writes did not resume within %s of recovery (first 2xx %s after)", limits.resume, firstOKAfter)
	}

	// Every acknowledged write is stored with the acknowledged score.
	check := sc.db.AdminPool(t)
	var nAcked, nStored int
	for w, list := range acked {
		nAcked += len(list)
		stored := storedScores(t, check, sc.players[w])
		for _, a := range list {
			if l, ok := stored[a.match]; ok && l == a.local {
				nStored++
			}
		}
	}
	if nStored != nAcked {
		t.Errorf("%d writes acknowledged, %d of them in the database", nAcked, nStored)
	}
	t.Logf("PostgreSQL killed at %s for %s (restart at %s, accepting at %s)", killed.Round(time.Millisecond), down,
		restartAt.Round(time.Millisecond), upAt.Round(time.Millisecond))
	t.Logf("%d requests; 2xx before %d, during %d, after %d; 503 while down %d (slowest %s); first 2xx %s after recovery; unexpected answers %d",
		len(answers), before, during, after, ok503, maxDown.Round(time.Millisecond), firstOKAfter.Round(time.Millisecond), problems)
	t.Logf("acknowledged writes %d, stored %d, lost %d; the process never exited", nAcked, nStored, nAcked-nStored)
}
