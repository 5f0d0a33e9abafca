package main_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
)

// TestPostgresOutage runs two real scoring replicas (one Redis) on a PostgreSQL cluster of the
// test's own, with eight clients reading standings pages and an event stream open on each
// replica. A result is entered and PostgreSQL killed at once (pg_ctl stop -m immediate, like a
// crash or a failover), so that its scoring is cut short; PostgreSQL stays down for
// PGDOWN_SECONDS (5 in `make test`, 30 in `make soak`). Once it is back a second result is
// entered. It checks:
//   - every page answer, before, during and after, is a 200 page within 2 s: while PostgreSQL
//     is down, the table a replica served last is still the table (no result can be entered),
//     even once Redis's version key has expired (30 s);
//   - two signed-in players asking for their own place and their league's table (one on each
//     replica) get 200s, or, while PostgreSQL is down (their session is read there), 503s in
//     the API's shape within 2 s, and 200s again once it is back;
//   - the result entered after the return is scored, heard on both replicas' streams and shown on
//     both replicas' pages within 5 s of PostgreSQL accepting connections (the consumer's
//     reconnection: its backoff is at most 2 s);
//   - both results count once: every points row, every total and the newest snapshot equal a
//     recomputation from scratch;
//   - neither process exits.
func TestPostgresOutage(t *testing.T) {
	down := testenv.Seconds(t, "PGDOWN_SECONDS", 5*time.Second)
	cluster := testenv.UseOwnCluster(t)
	l := newLeague(t, 200, 10)
	cutShort, afterReturn := l.matches[8], l.matches[9]
	l.enterResults(l.matches[:8], 0)
	// A Redis of the test's own: `make soak` runs this without the tests' throwaway servers.
	rs := testenv.NewRedisServer(t)
	redisURL, prefix := rs.URL(), "outage:"
	bin := testenv.Build(t, ".")
	// The production poll (2 s): after the outage, only the consumer's reconnection brings
	// the results in.
	replicas := []*testenv.Binary{
		startScoring(t, bin, l, redisURL, prefix, "POLL_INTERVAL=2s"),
		startScoring(t, bin, l, redisURL, prefix, "POLL_INTERVAL=2s"),
	}
	l.waitScored(10 * time.Second)
	torneo := int64(l.count(`SELECT id FROM fixtures.torneos WHERE actual`))
	scoringtest.Eventually(t, 5*time.Second, func() string {
		for _, r := range replicas {
			if v := standingsVersion(t, r, torneo); v != l.version() {
				return fmt.Sprintf("a replica serves version %d, not %d", v, l.version())
			}
		}
		return ""
	})
	streams := make([]<-chan [2]int64, len(replicas))
	for i, r := range replicas {
		streams[i] = openEvents(t, r, l.version())
	}

	readers := readPages(replicas...)
	// Two players of the league, signed in, each asking one replica for their own place and
	// their league's table.
	places := readPlaces(t, readers.begin, []testenv.Player{
		testenv.SignIn(t, l.e.DB, "jugador1@prode.test", "Jugador 1", false),
		testenv.SignIn(t, l.e.DB, "jugador2@prode.test", "Jugador 2", false),
	}, replicas...)

	time.Sleep(2 * time.Second)
	l.enterResults([]int64{cutShort}, 0)
	killed := readers.since()
	cluster.Kill()
	cluster.WaitDown(5 * time.Second)
	time.Sleep(down)
	cluster.Start()
	up, upAt := time.Now(), readers.since()

	// The test's own pool may hand out connections the outage broke: retry until one works.
	testenv.Until(t, 5*time.Second, "the result entered after the return", func() bool {
		return l.tryEnterResults([]int64{afterReturn}, 0) == nil
	})
	entered := time.Since(up)
	l.waitScored(15 * time.Second)
	scoredAfter := time.Since(up)
	want := l.version()
	var heardAfter []time.Duration
	for i, stream := range streams {
		if !heardOf(stream, want, 15*time.Second) {
			t.Errorf("replica %d's stream did not hear of version %d within 15 s", i, want)
		}
		heard := time.Since(up)
		if heard > 5*time.Second {
			t.Errorf("replica %d's stream heard of the result %s after PostgreSQL accepted connections, want 5 s at most", i, heard)
		}
		heardAfter = append(heardAfter, heard.Round(time.Millisecond))
	}
	scoringtest.Eventually(t, 15*time.Second, func() string {
		for i, r := range replicas {
			if v := standingsVersion(t, r, torneo); v < want {
				return fmt.Sprintf("replica %d serves version %d, not %d", i, v, want)
			}
		}
		return pageDiffersFromTotals(t, replicas[0], l)
	})
	shownAfter := time.Since(up)
	time.Sleep(time.Second) // load on the new table
	figures, answers := readers.stop()
	placesOK, placesRefused := places.checkAgainstOutage(t, killed, upAt, upAt+5*time.Second)

	for i, r := range replicas {
		select {
		case <-r.Exited():
			t.Fatalf("replica %d exited during the scenario\n%s", i, r.ErrorLogs())
		default:
		}
	}
	if figures.Failed != 0 {
		t.Errorf("%d of %d page requests failed; first: %s", figures.Failed, figures.Sent, strings.Join(figures.Failures, "; "))
	}
	pagesDuring, slowestDuring := slowest(answers, killed, upAt)
	if _, slowestOverall := slowest(answers, 0, readers.since()); slowestOverall > 2*time.Second {
		t.Errorf("a page took %s, want 2 s at most", slowestOverall)
	}
	if pagesDuring == 0 {
		t.Error("no page served while PostgreSQL was down")
	}
	if scoredAfter > 5*time.Second {
		t.Errorf("the result entered after the return was scored %s after PostgreSQL accepted connections, want 5 s at most", scoredAfter)
	}
	if shownAfter > 5*time.Second {
		t.Errorf("the result entered after the return showed on the pages %s after PostgreSQL accepted connections, want 5 s at most", shownAfter)
	}
	diffPoints, diffTotals, scored := l.recomputationDiffers()
	if diffPoints != 0 || diffTotals != 0 {
		t.Errorf("against a recomputation from scratch: %d rows of scoring.puntos and %d of scoring.totales_torneo differ (%d scored predictions)",
			diffPoints, diffTotals, scored)
	}
	scoringtest.Eventually(t, 10*time.Second, l.snapshotDiffers)
	t.Logf("PostgreSQL killed at %s for %s, accepting at %s; result entered %s after, scored %s after, heard on the streams %v after, shown %s after",
		killed.Round(time.Millisecond), down, upAt.Round(time.Millisecond), entered.Round(time.Millisecond),
		scoredAfter.Round(time.Millisecond), heardAfter, shownAfter.Round(time.Millisecond))
	t.Logf("%d page requests, %d failed; %d pages served while down, slowest %s; %d predictions scored, equal to a recomputation",
		figures.Sent, figures.Failed, pagesDuring, slowestDuring.Round(time.Millisecond), scored)
	t.Logf("own places and league tables: %d answered 200, %d answered 503 while PostgreSQL was down", placesOK, placesRefused)
}

// heardOf reads a stream until it tells of version want or later (true), or until timeout or
// its end (false).
func heardOf(stream <-chan [2]int64, want int64, timeout time.Duration) bool {
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-stream:
			if !ok {
				return false
			}
			if ev[1] >= want {
				return true
			}
		case <-deadline:
			return false
		}
	}
}
