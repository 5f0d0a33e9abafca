package http_test

import (
	"io"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"prode/platform/cache"
	"prode/platform/ratelimit"
	"prode/platform/testenv"
)

// Two players replicas sharing one Redis, as the chart runs them, spend one allowance: a player's
// renames and an address's sign-ins are limited to the configured burst whichever replica each
// request reaches, where each replica used to allow the whole burst (twice the renames with
// two replicas, ten times with ten).
func TestRateLimitsAreSharedByReplicas(t *testing.T) {
	url, prefix := testenv.Redis(t)
	db := testenv.NewDB(t)
	replica := func() *stack {
		rdb, err := cache.Connect(url, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = rdb.Close() })
		shared := ratelimit.NewShared(rdb, prefix, prometheus.NewRegistry(), slog.New(slog.NewTextHandler(io.Discard, nil)))
		return newLimitedDevStackOn(t, db, limits{
			renames: ratelimit.New(5.0/60, 3),  // RENAME_RATE 5/min, RENAME_BURST 3
			signIn:  ratelimit.New(10.0/60, 4), // SIGNIN_RATE 10/min, burst 4
			shared:  shared,
		})
	}
	a, b := replica(), replica()
	replicas := []*stack{a, b}

	dolores := signedIn(t, a, "Dolores", "dolores@example.com") // two sign-in requests from the test's own address
	for i, nombre := range []string{"Lola", "Loli", "Lolita"} {
		if res := rename(replicas[i%2], nombre, "dolores@example.com", dolores); res.Status != 200 {
			t.Fatalf("rename %d within the burst, on replica %d: %d %s", i+1, i%2, res.Status, res.Body)
		}
	}
	for i, s := range replicas {
		if res := rename(s, "Dolo", "dolores@example.com", dolores); res.Status != 429 || res.ErrorCode() != "demasiadas_solicitudes" {
			t.Fatalf("a fourth rename on replica %d: %d %s, want 429 (the burst is the player's, not each replica's)", i, res.Status, res.Body)
		}
	}
	if got := storedName(t, a, "dolores@example.com"); got != "Lolita" {
		t.Fatalf("stored name %q, want Lolita (refused renames change nothing)", got)
	}

	from := testenv.WithHeader("X-Forwarded-For", "203.0.113.9")
	for i := range 4 {
		if res := replicas[i%2].api.Do("POST", "/api/sesion", map[string]string{"code": "dev.e30.00"}, from); res.Status != 401 {
			t.Fatalf("bad code %d within the address's burst, on replica %d: %d %s", i+1, i%2, res.Status, res.Body)
		}
	}
	for i, s := range replicas {
		if res := s.api.Do("POST", "/api/sesion", map[string]string{"code": "dev.e30.00"}, from); res.Status != 429 {
			t.Fatalf("a fifth sign-in from the address on replica %d: %d %s, want 429", i, res.Status, res.Body)
		}
	}
	if res := b.api.Do("POST", "/api/sesion", map[string]string{"code": "dev.e30.00"},
		testenv.WithHeader("X-Forwarded-For", "198.51.100.3")); res.Status != 401 {
		t.Fatalf("another address: %d %s, want 401 (its own bucket)", res.Status, res.Body)
	}
}
