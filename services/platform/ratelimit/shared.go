package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"prode/platform/cache"
	"prode/platform/metrics"
)

// awayFor is how long the limiters decide in this process after Redis failed to answer, before
// they ask it again: during an outage a request then waits for Redis at most once a second per
// replica, not on every request (a Redis that is not there costs up to its 200 ms timeouts).
const awayFor = time.Second

// never stands for a rate of zero: a bucket that does not refill.
const never = 100 * 365 * 24 * time.Hour

var errAway = errors.New("ratelimit: Redis did not answer a moment ago")

// Shared is the Redis in which limiters keep their buckets, so that every replica of a
// service spends the same allowance. Each bucket is a GCRA key (github.com/go-redis/redis_rate:
// one Lua script a request, on Redis's clock, so replicas' clocks do not matter) that expires
// once it is full again. Like the standings cache, it holds nothing that must survive: an
// emptied Redis gives every key a full bucket.
type Shared struct {
	rdb    *redis_rate.Limiter
	prefix string
	log    *slog.Logger
	alone  prometheus.Counter // decisions this process took alone

	mu        sync.Mutex
	awayUntil time.Time // while Redis did not answer: the limiters decide here until then
}

// Connect is the Shared in the Redis at url (REDIS_URL, with REDIS_PASSWORD if not ""), and a
// func that closes its client; with no url, nil: each replica keeps its own buckets.
func Connect(url, password, prefix string, reg prometheus.Registerer, log *slog.Logger) (*Shared, func(), error) {
	if url == "" {
		return nil, func() {}, nil
	}
	cache.UseLogger(log)
	rdb, err := cache.Connect(url, password)
	if err != nil {
		return nil, nil, fmt.Errorf("redis: %w", err)
	}
	return NewShared(rdb, prefix, reg, log), func() { _ = rdb.Close() }, nil
}

// NewShared keeps buckets in rdb, and registers on reg the count of decisions taken without it.
// A bucket's key is "rate:" (redis_rate's own prefix), then prefix (REDIS_PREFIX), "limit:",
// the limit's name and the key: rate:prode:limit:players:renames:42.
func NewShared(rdb *redis.Client, prefix string, reg prometheus.Registerer, log *slog.Logger) *Shared {
	return &Shared{
		rdb:    redis_rate.NewLimiter(rdb),
		prefix: prefix + "limit:",
		log:    log,
		alone: metrics.On(reg).Counter("prode_rate_limit_local_decisions_total",
			"Rate-limit decisions this replica took alone, with its own buckets, because Redis did not answer."),
	}
}

// Share keeps l's buckets in s under name (one name a limit of the service: "renames") and
// returns l. With a nil s the buckets stay in this process.
func (l *Limiter) Share(s *Shared, name string) *Limiter {
	if l != nil && s != nil {
		l.shared = &sharedBuckets{store: s, name: name + ":", limit: gcra(l.limit, l.burst)}
	}
	return l
}

// gcra is the token bucket's rate and burst in redis_rate's terms: one token every 1/rate.
func gcra(limit rate.Limit, burst int) redis_rate.Limit {
	every := never
	if limit > 0 {
		every = time.Duration(float64(time.Second) / float64(limit))
	}
	return redis_rate.Limit{Rate: 1, Period: every, Burst: burst}
}

// sharedBuckets are one limiter's buckets in a Shared Redis.
type sharedBuckets struct {
	store *Shared
	name  string
	limit redis_rate.Limit
}

// allow takes a token from key's shared bucket. An error means Redis did not decide: the caller
// decides with its own buckets. A nil b (a limiter not shared) always errs.
func (b *sharedBuckets) allow(ctx context.Context, key string) (bool, time.Duration, error) {
	res, err := b.take(ctx, key, 1)
	if err != nil {
		return false, 0, err
	}
	if res.Allowed == 0 {
		return false, max(res.RetryAfter, 0), nil
	}
	return true, 0, nil
}

// exhausted looks at key's shared bucket without taking a token (redis_rate with a cost of 0).
func (b *sharedBuckets) exhausted(ctx context.Context, key string) (bool, time.Duration, error) {
	res, err := b.take(ctx, key, 0)
	if err != nil {
		return false, 0, err
	}
	if res.Remaining >= 1 {
		return false, 0, nil
	}
	// ResetAfter is when the bucket is full; one token comes burst-1 emissions before that.
	emission := b.limit.Period / time.Duration(b.limit.Rate)
	wait := res.ResetAfter - time.Duration(b.limit.Burst-1)*emission
	return true, max(wait, 0), nil
}

// take runs the GCRA script for n tokens, unless Redis failed to answer less than awayFor ago.
func (b *sharedBuckets) take(ctx context.Context, key string, n int) (*redis_rate.Result, error) {
	if b == nil {
		return nil, errAway
	}
	s := b.store
	if s.away() {
		s.alone.Inc()
		return nil, errAway
	}
	res, err := s.rdb.AllowN(ctx, s.prefix+b.name+key, b.limit, n)
	if err != nil && ctx.Err() == nil { // a client that hung up says nothing of Redis
		s.wentAway(err)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// away says whether Redis failed to answer less than awayFor ago.
func (s *Shared) away() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Now().Before(s.awayUntil)
}

// wentAway starts awayFor of deciding here. It logs the first failure of an outage (none in the
// minute before it), not every one.
func (s *Shared) wentAway(err error) {
	s.alone.Inc()
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Now().After(s.awayUntil.Add(time.Minute)) {
		s.log.Warn("rate limits decided by this replica alone: Redis did not answer", slog.String("error", err.Error()))
	}
	s.awayUntil = time.Now().Add(awayFor)
}
