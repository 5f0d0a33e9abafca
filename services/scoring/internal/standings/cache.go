package standings

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache keeps standings pages in Redis under the standings version. Redis holds only what
// can be rebuilt from PostgreSQL:
//
//	<prefix>posiciones:t<torneo>:version                            the tournament's current version (TTL 30 s)
//	<prefix>posiciones:t<torneo>:v<version>:<pagina>:<por_pagina>   one page's JSON body (TTL 60 s)
//	<prefix>posiciones:t<torneo>:v<version>:f<date>:<pagina>:<por_pagina>  a matchday's table
//	<prefix>posiciones:t<torneo>:v<version>:fechas:0:0                       the matchdays
//	<prefix>grupos:g<grupo>:t<snapshot>:v<league version>:<pagina>:<por_pagina>  a league's table
//
// A version is "<snapshot>.<last player>" (version.go). A new version makes every old page of
// the tournament unreachable at once; the TTLs bound how long a missed update can go unseen.
// A league's pages (package grupos) go under the snapshot and the league's own version, which
// its membership moves; they share this Cache so that one Redis outage is noticed once.
type Cache struct {
	rdb    *redis.Client
	prefix string
	// downUntil (unix nanoseconds): after a Redis error, reads skip Redis for a moment, so
	// that an outage costs requests nothing rather than a timeout each.
	downUntil atomic.Int64
}

const (
	versionTTL = 30 * time.Second
	pageTTL    = 60 * time.Second
	// skipAfterError is how long reads skip Redis after it failed.
	skipAfterError = time.Second
	// readBudget bounds a read of the cache (two GETs), whatever Redis does.
	readBudget = 250 * time.Millisecond
)

var (
	// ErrMiss: Redis answered and does not hold the page.
	ErrMiss = errors.New("page not cached")
	errDown = errors.New("redis failed a moment ago; skipped")
)

// setVersion sets the version key unless it already holds a newer version (two replicas, or
// the repair loop racing a publish, must never move it backwards), refreshing its TTL when it
// holds this one. Versions are "<snapshot>.<last player>", compared in that order. It returns 1
// when it set the key.
var setVersion = redis.NewScript(`
local function parse(v)
  if not v then return nil end
  local a, b = string.match(v, "^(%d+)%.(%d+)$")
  if not a then return nil end
  return tonumber(a), tonumber(b)
end
local ct, cj = parse(redis.call('GET', KEYS[1]))
local nt, nj = parse(ARGV[1])
if ct == nil or ct < nt or (ct == nt and cj < nj) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
if ct == nt and cj == nj then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return 0
`)

// NewCache uses rdb (platform/cache.Connect: short timeouts, no retries) under prefix.
func NewCache(rdb *redis.Client, prefix string) *Cache {
	return &Cache{rdb: rdb, prefix: prefix}
}

// VersionKey is the key of a tournament's current version.
func (c *Cache) VersionKey(torneo int64) string {
	return fmt.Sprintf("%sposiciones:t%d:version", c.prefix, torneo)
}

// PageKey is the key of one page of a tournament at one version.
func (c *Cache) PageKey(torneo int64, v Version, pagina, porPagina int) string {
	return c.key(torneo, v, pageKey{pagina: pagina, porPagina: porPagina})
}

func (c *Cache) key(torneo int64, v Version, k pageKey) string {
	return fmt.Sprintf("%sposiciones:t%d:v%s:%s", c.prefix, torneo, v, k)
}

// Page returns the cached body of a page at the current version, and that version: ErrMiss
// when Redis does not have it, errDown or Redis's error when Redis cannot answer.
func (c *Cache) Page(ctx context.Context, torneo int64, k pageKey) ([]byte, Version, error) {
	if time.Now().UnixNano() < c.downUntil.Load() {
		return nil, Version{}, errDown
	}
	ctx, cancel := context.WithTimeout(ctx, readBudget)
	defer cancel()
	raw, err := c.rdb.Get(ctx, c.VersionKey(torneo)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, Version{}, ErrMiss
	}
	if err != nil {
		return nil, Version{}, c.failed(ctx, err)
	}
	v, err := parseVersion(raw)
	if err != nil {
		return nil, Version{}, ErrMiss // written by another release: read PostgreSQL, publish anew
	}
	body, err := c.rdb.Get(ctx, c.key(torneo, v, k)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, Version{}, ErrMiss
	}
	if err != nil {
		return nil, Version{}, c.failed(ctx, err)
	}
	return body, v, nil
}

// Store caches a page read at v and moves the tournament's version key up to v. The page goes
// first, so that a reader who sees the new version finds its page.
func (c *Cache) Store(ctx context.Context, torneo int64, v Version, k pageKey, body []byte) error {
	if err := c.rdb.Set(ctx, c.key(torneo, v, k), body, pageTTL).Err(); err != nil {
		return c.failed(ctx, err)
	}
	_, err := c.SetVersion(ctx, torneo, v)
	return err
}

// HasPage says whether Redis holds a page at v.
func (c *Cache) HasPage(ctx context.Context, torneo int64, v Version, k pageKey) (bool, error) {
	n, err := c.rdb.Exists(ctx, c.key(torneo, v, k)).Result()
	if err != nil {
		return false, c.failed(ctx, err)
	}
	return n == 1, nil
}

// SetVersion moves the tournament's version key up to v (never down) and refreshes its TTL; set
// says whether the key was missing or behind.
func (c *Cache) SetVersion(ctx context.Context, torneo int64, v Version) (set bool, err error) {
	n, err := setVersion.Run(ctx, c.rdb, []string{c.VersionKey(torneo)},
		v.String(), int(versionTTL/time.Second)).Int()
	if err != nil {
		return false, c.failed(ctx, err)
	}
	c.downUntil.Store(0) // Redis answers: reads may use it again
	return n == 1, nil
}

// LeaguePageKey is the key of one page of a league's table, read at a snapshot of the
// tournament's table and a version of the league's membership.
func (c *Cache) LeaguePageKey(grupo, tabla, version int64, pagina, porPagina int) string {
	return fmt.Sprintf("%sgrupos:g%d:t%d:v%d:%d:%d", c.prefix, grupo, tabla, version, pagina, porPagina)
}

// Get returns the body cached under key: ErrMiss when Redis does not have it, errDown or
// Redis's error when Redis cannot answer.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, error) {
	if time.Now().UnixNano() < c.downUntil.Load() {
		return nil, errDown
	}
	ctx, cancel := context.WithTimeout(ctx, readBudget)
	defer cancel()
	body, err := c.rdb.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, ErrMiss
	}
	if err != nil {
		return nil, c.failed(ctx, err)
	}
	return body, nil
}

// Put caches body under key for pageTTL.
func (c *Cache) Put(ctx context.Context, key string, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, readBudget)
	defer cancel()
	if err := c.rdb.Set(ctx, key, body, pageTTL).Err(); err != nil {
		return c.failed(ctx, err)
	}
	c.downUntil.Store(0)
	return nil
}

// failed remembers that Redis failed, unless the caller gave up (a request cancelled by its
// client says nothing about Redis).
func (c *Cache) failed(ctx context.Context, err error) error {
	if !errors.Is(ctx.Err(), context.Canceled) {
		c.downUntil.Store(time.Now().Add(skipAfterError).UnixNano())
	}
	return err
}
