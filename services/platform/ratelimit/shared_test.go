package ratelimit_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"prode/platform/cache"
	"prode/platform/ratelimit"
	"prode/platform/testenv"
)

// replica is one process's limiter shared in Redis: its own client, registry and buckets.
type replica struct {
	limit *ratelimit.Limiter
	reg   *prometheus.Registry
}

func newReplica(t *testing.T, url, prefix string, perSecond float64, burst int) replica {
	t.Helper()
	rdb, err := cache.Connect(url, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rdb.Close() })
	return newReplicaOn(t, rdb, prefix, perSecond, burst)
}

// newReplicaOn is newReplica on a client of the caller's.
func newReplicaOn(t testing.TB, rdb *redis.Client, prefix string, perSecond float64, burst int) replica {
	reg := prometheus.NewRegistry()
	shared := ratelimit.NewShared(rdb, prefix, reg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return replica{limit: ratelimit.New(perSecond, burst).Share(shared, "renames"), reg: reg}
}

// decidedAlone is how many decisions the replica took without Redis.
func (r replica) decidedAlone(t *testing.T) float64 {
	t.Helper()
	families, err := r.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == "prode_rate_limit_local_decisions_total" {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatal("prode_rate_limit_local_decisions_total is not registered")
	return 0
}

// allowed counts the requests of key the replicas allow when asked in turn, n times in all.
func allowed(replicas []replica, key string, n int) int {
	count := 0
	for i := range n {
		if ok, _ := replicas[i%len(replicas)].limit.Allow(context.Background(), key); ok {
			count++
		}
	}
	return count
}

// Two replicas of a service sharing one Redis spend one allowance: a burst of 3 renames a
// minute allows 3 in all, whichever replica each request reaches, where two limiters of their
// own would allow 6. Another key has its own bucket, and a refused request says how long to wait.
func TestReplicasSpendOneSharedAllowance(t *testing.T) {
	url, prefix := testenv.Redis(t)
	a := newReplica(t, url, prefix, 1.0/60, 3)
	b := newReplica(t, url, prefix, 1.0/60, 3)
	if got := allowed([]replica{a, b}, "player-1", 10); got != 3 {
		t.Fatalf("two replicas allowed %d of 10 requests, want 3 (the burst, once)", got)
	}
	ok, wait := b.limit.Allow(context.Background(), "player-1")
	if ok || wait <= 0 || wait > time.Minute {
		t.Fatalf("past the burst: ok=%v wait=%v, want refused with a wait within a minute", ok, wait)
	}
	if got := allowed([]replica{b, a}, "player-2", 4); got != 3 {
		t.Fatalf("another key: %d allowed of 4, want 3", got)
	}
	if got := allowed([]replica{{limit: ratelimit.New(1.0/60, 3)}, {limit: ratelimit.New(1.0/60, 3)}}, "player-1", 10); got != 6 {
		t.Fatalf("two unshared limiters allowed %d, want 6 (the case sharing is for)", got)
	}
	if alone := a.decidedAlone(t) + b.decidedAlone(t); alone != 0 {
		t.Fatalf("%v decisions taken without Redis while it answered", alone)
	}
}

// A limit that counts only failures (unknown invite codes) looks at the shared bucket without
// taking from it, on either replica, and sees another replica's failures.
func TestSharedExhaustedLooksWithoutTaking(t *testing.T) {
	ctx := context.Background()
	url, prefix := testenv.Redis(t)
	a := newReplica(t, url, prefix, 1.0/60, 2)
	b := newReplica(t, url, prefix, 1.0/60, 2)
	for i := range 4 {
		if out, _ := a.limit.Exhausted(ctx, "s"); out {
			t.Fatalf("look %d: a key never used is exhausted", i)
		}
	}
	a.limit.Allow(ctx, "s")
	if out, _ := b.limit.Exhausted(ctx, "s"); out {
		t.Fatal("one token left, but exhausted")
	}
	b.limit.Allow(ctx, "s")
	for _, r := range []replica{a, b} {
		if out, wait := r.limit.Exhausted(ctx, "s"); !out || wait <= 0 || wait > time.Minute {
			t.Fatalf("no token left: exhausted=%v wait=%v, want true and a wait within a minute", out, wait)
		}
	}
}

// While Redis does not answer, each replica decides with its own buckets (the configured rate
// per replica: requests are still limited, and none fails); once Redis is back, within a second
// of its return, the replicas share again.
func TestReplicasDecideAloneWhileRedisIsAway(t *testing.T) {
	redis := testenv.NewRedisServer(t)
	_, prefix := testenv.Redis(t)
	a := newReplica(t, redis.URL(), prefix, 1.0/60, 3)
	b := newReplica(t, redis.URL(), prefix, 1.0/60, 3)
	if got := allowed([]replica{a, b}, "k", 6); got != 3 {
		t.Fatalf("before the outage: %d allowed, want 3", got)
	}

	redis.Kill()
	if got := allowed([]replica{a}, "k", 5); got != 3 {
		t.Fatalf("Redis away: replica a allowed %d of 5, want 3 (its own burst)", got)
	}
	if got := allowed([]replica{b}, "k", 5); got != 3 {
		t.Fatalf("Redis away: replica b allowed %d of 5, want 3 (its own burst)", got)
	}
	if alone := a.decidedAlone(t); alone != 5 {
		t.Fatalf("replica a counted %v decisions taken alone, want 5", alone)
	}

	redis.Start() // empty: every shared bucket is full again
	time.Sleep(1100 * time.Millisecond)
	if got := allowed([]replica{b, a}, "k", 8); got != 3 {
		t.Fatalf("Redis back: %d allowed of 8, want 3 (shared again)", got)
	}
}
