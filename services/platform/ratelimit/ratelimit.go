// Package ratelimit refuses bursts of requests per key (a session, a client address) with 429
// demasiadas_solicitudes and Retry-After. A limiter shared in Redis (Share) keeps each key's
// bucket there, so that every replica of a service spends one allowance; its buckets in this
// process (golang.org/x/time/rate, in a map whose idle entries expire) decide alone when there
// is no Redis, or while it does not answer: then each replica allows the configured rate, and
// the service as a whole at most replicas × that (docs/reliability.md).
package ratelimit

import (
	"context"
	"math"
	"net/netip"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/time/rate"

	"prode/platform/apierror"
	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/session"
)

// Limiter holds one token bucket per key.
type Limiter struct {
	limit  rate.Limit
	burst  int
	shared *sharedBuckets // nil: the buckets below decide alone
	idle   time.Duration  // a bucket idle this long is full again and can be forgotten
	now    func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// FromEnv is a limiter whose rate (rateName: "5/s", "10/min"...) and burst (burstName, 1 to
// 10,000) a service reads from env, with these defaults.
func FromEnv(env *config.Env, rateName, rate, burstName string, burst int) *Limiter {
	return New(env.Rate(rateName, rate), env.Int(burstName, burst, 1, 10000))
}

// New allows perSecond requests a second per key with bursts of burst.
func New(perSecond float64, burst int) *Limiter {
	if burst < 1 {
		burst = 1
	}
	idle := time.Minute
	if perSecond > 0 {
		if full := time.Duration(float64(burst) / perSecond * float64(time.Second)); full > idle {
			idle = full
		}
	}
	return &Limiter{limit: rate.Limit(perSecond), burst: burst, idle: idle, now: time.Now, buckets: map[string]*bucket{}}
}

// SetClock replaces the clock (tests).
func (l *Limiter) SetClock(now func() time.Time) { l.now = now }

// Allow takes a token for key; when there is none it says how long until there is.
func (l *Limiter) Allow(ctx context.Context, key string) (bool, time.Duration) {
	if ok, wait, err := l.shared.allow(ctx, key); err == nil {
		return ok, wait
	}
	return l.allowHere(key)
}

// Exhausted says, without taking a token, whether key has none left and how long until it
// has one. It serves limits that count only failed attempts (unknown invite codes): an attempt
// is refused beforehand once failures used every token, and each failure takes one with Allow.
func (l *Limiter) Exhausted(ctx context.Context, key string) (bool, time.Duration) {
	if out, wait, err := l.shared.exhausted(ctx, key); err == nil {
		return out, wait
	}
	return l.exhaustedHere(key)
}

// allowHere is Allow with this process's buckets.
func (l *Limiter) allowHere(key string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(l.limit, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return false, l.idle
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// exhaustedHere is Exhausted with this process's buckets.
func (l *Limiter) exhaustedHere(key string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		return false, 0
	}
	tokens := b.lim.TokensAt(now)
	if tokens >= 1 {
		return false, 0
	}
	if l.limit <= 0 {
		return true, l.idle
	}
	return true, time.Duration((1 - tokens) / float64(l.limit) * float64(time.Second))
}

// Len is the number of keys remembered (tests, metrics).
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// sweep forgets idle buckets at most once per idle period, so the map stays as small as the
// set of recently active keys.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < l.idle {
		return
	}
	l.lastSweep = now
	for k, b := range l.buckets {
		if now.Sub(b.seen) >= l.idle {
			delete(l.buckets, k)
		}
	}
}

// Middleware refuses a request whose key (from key; "" skips the limit) has no token left.
func (l *Limiter) Middleware(key func(*gin.Context) string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if l == nil {
			c.Next()
			return
		}
		k := key(c)
		if k == "" {
			c.Next()
			return
		}
		if ok, wait := l.Allow(c.Request.Context(), k); !ok {
			httpserver.Fail(c, TooMany(wait))
			return
		}
		c.Next()
	}
}

// TooMany is the 429 answer with Retry-After in whole seconds (at least 1).
func TooMany(wait time.Duration) *apierror.Error {
	secs := int(math.Ceil(wait.Seconds()))
	if secs < 1 {
		secs = 1
	}
	return apierror.TooManyRequests(secs)
}

// ClientIP keys by the client's address as the nearest trusted proxy saw it
// (httpserver.ClientAddress: X-Forwarded-For counted from the right by TRUSTED_PROXY_HOPS), so
// that a client cannot choose its bucket by sending an X-Forwarded-For of its own. An IPv6
// client is keyed by its /64: a provider hands one subscriber at least a /64, so one client can
// use any of 2^64 addresses, each of which would otherwise be a fresh bucket. IPv4 stays per
// address (IPv4-mapped IPv6 arrives unmapped from ClientAddress, so it counts as IPv4).
func ClientIP(c *gin.Context) string { return addressKey(httpserver.ClientAddress(c)) }

// addressKey is an IPv4 address as it is, an IPv6 one as its /64 prefix; anything else (no
// address could be read) as it is.
func addressKey(address string) string {
	addr, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	if addr = addr.Unmap().WithZone(""); addr.Is4() {
		return addr.String()
	}
	return netip.PrefixFrom(addr, 64).Masked().String()
}

// PerSession keys by the session's id; the route must be behind a session middleware. A write
// refused for any reason spends only the allowance of the session that sent it: a cookie ended
// with 'Salir' (session.Signed lets it through to the write, whose statement refuses it with
// 401) or another player's live session cannot use up the owner's allowance, as keying by the
// player's id allowed.
func PerSession(c *gin.Context) string {
	if claims, ok := session.FromContext(c); ok {
		return claims.SessionID
	}
	return ""
}
