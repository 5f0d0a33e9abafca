package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
)

// TestRedisOutageUnderLoad runs the real scoring binary with a redis-server of the test's own
// and eight clients reading standings pages in a steady loop. Once the cache has served (2 s
// or more), it kills Redis (SIGKILL: its data is gone) for REDISDOWN_SECONDS (3 by default),
// enters a result while Redis is away, starts an empty Redis again and keeps the load until
// the cache serves again.
// It checks:
//   - every answer, before, during and after, is a 200 with a page (no 5xx, no transport error);
//   - /readyz stays 200 while Redis is down: the pod must not leave the Service for it;
//   - the result entered during the outage is scored and shows in the standings, read from
//     PostgreSQL, within 3 s;
//   - after Redis returns, the version key reappears at PostgreSQL's version and the cache
//     serves hits again within 5 s (prode_standings_cache_requests_total{result="hit"} grows);
//   - the process never exits.
func TestRedisOutageUnderLoad(t *testing.T) {
	down := testenv.Seconds(t, "REDISDOWN_SECONDS", 3*time.Second)
	l := newLeague(t, 200, 10)
	lastMatch := l.matches[len(l.matches)-1]
	l.enterResults(l.matches[:len(l.matches)-1], 0)
	rs := testenv.NewRedisServer(t)
	const prefix = "outage:"
	bin := testenv.Build(t, ".")
	svc := startScoring(t, bin, l, rs.URL(), prefix)
	l.waitScored(10 * time.Second)

	readers := readPages(svc)

	time.Sleep(2 * time.Second)
	// Pages are served from the process's memory for a second at a time, so hits are few; at
	// least one shows the cache in use before it goes away.
	var hitsBefore float64
	scoringtest.Eventually(t, 3*time.Second, func() string {
		if hitsBefore = cacheRequests(t, svc, "hit"); hitsBefore == 0 {
			return "no Redis hit before the outage: the scenario would not test the cache"
		}
		return ""
	})
	killed := readers.since()
	rs.Kill()

	// While Redis is away: a result comes in, is scored, and shows in the standings.
	l.enterResults([]int64{lastMatch}, 0)
	l.waitScored(5 * time.Second)
	scored := time.Now()
	scoringtest.Eventually(t, 3*time.Second, func() string { return pageDiffersFromTotals(t, svc, l) })
	shownAfter := time.Since(scored)
	if status := readyz(svc); status != http.StatusOK {
		t.Errorf("/readyz answered %d while Redis was down", status)
	}
	time.Sleep(down - (readers.since() - killed))

	restarted := readers.since()
	rs.Start()
	hitsAtRestart := cacheRequests(t, svc, "hit")
	rdb := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", rs.Port)})
	defer rdb.Close()
	want := l.version()
	torneo := l.count(`SELECT id FROM fixtures.torneos WHERE actual`)
	scoringtest.Eventually(t, 10*time.Second, func() string {
		v, err := rdb.Get(context.Background(), fmt.Sprintf("%sposiciones:t%d:version", prefix, torneo)).Result()
		if err != nil || !strings.HasPrefix(v, fmt.Sprintf("%d.", want)) {
			return fmt.Sprintf("version key %q (%v), want snapshot %d", v, err, want)
		}
		return ""
	})
	rebuiltAfter := readers.since() - restarted
	var hitsAfter float64
	scoringtest.Eventually(t, 5*time.Second, func() string {
		if hitsAfter = cacheRequests(t, svc, "hit"); hitsAfter <= hitsAtRestart {
			return fmt.Sprintf("no Redis hit since Redis came back (%v at the restart)", hitsAtRestart)
		}
		return ""
	})
	hitsBackAfter := readers.since() - restarted
	time.Sleep(time.Second) // load on the rebuilt cache
	figures, answers := readers.stop()

	select {
	case <-svc.Exited():
		t.Fatalf("the service exited during the scenario\n%s", svc.ErrorLogs())
	default:
	}
	if figures.Failed != 0 {
		t.Errorf("%d of %d requests failed; first: %s", figures.Failed, figures.Sent, strings.Join(figures.Failures, "; "))
	}
	during, slowestDuring := slowest(answers, killed, restarted)
	_, slowestOverall := slowest(answers, 0, readers.since())
	t.Logf("Redis killed at %s for %s, restarted at %s; version key back %s and the first Redis hit %s after the restart",
		killed.Round(time.Millisecond), down, restarted.Round(time.Millisecond), rebuiltAfter.Round(time.Millisecond),
		hitsBackAfter.Round(time.Millisecond))
	t.Logf("%d requests (%d while Redis was down, slowest %s; slowest overall %s), %d failed",
		figures.Sent, during, slowestDuring.Round(time.Millisecond), slowestOverall.Round(time.Millisecond), figures.Failed)
	t.Logf("result entered during the outage shown %s after it was scored; /readyz 200 during the outage; Redis hits %v before the outage, %v at the restart, %v once back; the process never exited",
		shownAfter.Round(time.Millisecond), hitsBefore, hitsAtRestart, hitsAfter)
}

// pageDiffersFromTotals reads page 1 and compares each row's points with scoring.totales_torneo: ""
// when they agree, else what differs.
func pageDiffersFromTotals(t testing.TB, svc *testenv.Binary, l *league) string {
	res, err := http.Get(svc.URL("/api/posiciones?pagina=1&por_pagina=50"))
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	var p struct {
		Posiciones []struct {
			ID      int64 `json:"id"`
			Puntaje int64 `json:"puntaje"`
		} `json:"posiciones"`
	}
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil {
		return err.Error()
	}
	for _, row := range p.Posiciones {
		var stored int64
		err := l.e.Admin.QueryRow(context.Background(),
			`SELECT coalesce((SELECT sum(puntaje) FROM scoring.totales_torneo WHERE jugador_id = $1), 0)`, row.ID).Scan(&stored)
		if err != nil {
			t.Fatal(err)
		}
		if stored != row.Puntaje {
			return fmt.Sprintf("player %d: page says %d points, scoring.totales_torneo %d", row.ID, row.Puntaje, stored)
		}
	}
	return ""
}

// cacheRequests reads prode_standings_cache_requests_total{result=...} from /metrics.
func cacheRequests(t testing.TB, svc *testenv.Binary, result string) float64 {
	t.Helper()
	res, err := http.Get(svc.AdminURL("/metrics"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	series := fmt.Sprintf(`prode_standings_cache_requests_total{result=%q} `, result)
	scanner := bufio.NewScanner(res.Body)
	for scanner.Scan() {
		if value, ok := strings.CutPrefix(scanner.Text(), series); ok {
			n, err := strconv.ParseFloat(value, 64)
			if err != nil {
				t.Fatalf("%s%s: %v", series, value, err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /metrics", series)
	return 0
}

// readyz is the status /readyz answers (0: no answer).
func readyz(svc *testenv.Binary) int {
	res, err := http.Get(svc.AdminURL("/readyz"))
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}
