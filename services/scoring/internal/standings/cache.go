package standings

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache keeps standings pages in Redis under the standings version. Redis holds only what
// can be rebuilt from PostgreSQL:
//
//	<prefix>posiciones:version                          the current version (TTL 30 s)
//	<prefix>posiciones:v<version>:<pagina>:<por_pagina>  one page's JSON body (TTL 60 s)
//
// A new version makes every old page unreachable at once; the TTLs bound how long a missed
// update or a newly registered player can go unseen.
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
	errMiss = errors.New("standings page not cached")
	errDown = errors.New("redis failed a moment ago; skipped")
)

// setVersion sets the version key unless it already holds a newer version (two replicas, or
// the repair loop racing a publish, must never move it backwards), refreshing its TTL when it
// holds this one. It returns 1 when it set the key.
var setVersion = redis.NewScript(`
local current = tonumber(redis.call('GET', KEYS[1]))
local version = tonumber(ARGV[1])
if current == nil or current < version then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
if current == version then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return 0
`)

// NewCache uses rdb (platform/cache.Connect: short timeouts, no retries) under prefix.
func NewCache(rdb *redis.Client, prefix string) *Cache {
	return &Cache{rdb: rdb, prefix: prefix}
}

// VersionKey is the key of the current version.
func (c *Cache) VersionKey() string { return c.prefix + "posiciones:version" }

// PageKey is the key of one page at one version.
func (c *Cache) PageKey(version int64, pagina, porPagina int) string {
	return fmt.Sprintf("%sposiciones:v%d:%d:%d", c.prefix, version, pagina, porPagina)
}

// Page returns the cached body of a page at the current version, and that version: errMiss
// when Redis does not have it, errDown or Redis's error when Redis cannot answer.
func (c *Cache) Page(ctx context.Context, pagina, porPagina int) ([]byte, int64, error) {
	if time.Now().UnixNano() < c.downUntil.Load() {
		return nil, 0, errDown
	}
	ctx, cancel := context.WithTimeout(ctx, readBudget)
	defer cancel()
	version, err := c.rdb.Get(ctx, c.VersionKey()).Int64()
	if errors.Is(err, redis.Nil) {
		return nil, 0, errMiss
	}
	if err != nil {
		return nil, 0, c.failed(ctx, err)
	}
	body, err := c.rdb.Get(ctx, c.PageKey(version, pagina, porPagina)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, 0, errMiss
	}
	if err != nil {
		return nil, 0, c.failed(ctx, err)
	}
	return body, version, nil
}

// Store caches a page read at version and moves the version key up to version. The page goes
// first, so that a reader who sees the new version finds its page.
func (c *Cache) Store(ctx context.Context, version int64, pagina, porPagina int, body []byte) error {
	if err := c.rdb.Set(ctx, c.PageKey(version, pagina, porPagina), body, pageTTL).Err(); err != nil {
		return c.failed(ctx, err)
	}
	_, err := c.SetVersion(ctx, version)
	return err
}

// HasPage says whether Redis holds a page at version.
func (c *Cache) HasPage(ctx context.Context, version int64, pagina, porPagina int) (bool, error) {
	n, err := c.rdb.Exists(ctx, c.PageKey(version, pagina, porPagina)).Result()
	if err != nil {
		return false, c.failed(ctx, err)
	}
	return n == 1, nil
}

// SetVersion moves the version key up to version (never down) and refreshes its TTL; set
// says whether the key was missing or behind.
func (c *Cache) SetVersion(ctx context.Context, version int64) (set bool, err error) {
	n, err := setVersion.Run(ctx, c.rdb, []string{c.VersionKey()},
		strconv.FormatInt(version, 10), int(versionTTL/time.Second)).Int()
	if err != nil {
		return false, c.failed(ctx, err)
	}
	c.downUntil.Store(0) // Redis answers: reads may use it again
	return n == 1, nil
}

// failed remembers that Redis failed, unless the caller gave up (a request cancelled by its
// client says nothing about Redis).
func (c *Cache) failed(ctx context.Context, err error) error {
	if !errors.Is(ctx.Err(), context.Canceled) {
		c.downUntil.Store(time.Now().Add(skipAfterError).UnixNano())
	}
	return err
}
