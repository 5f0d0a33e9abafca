package grupos

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache keeps pages of league tables in Redis, like the main table's pages
// (standings.Cache), under everything that changes them:
//
//	<prefix>grupos:g<grupo>:t<snapshot>:v<league version>:<pagina>:<por_pagina>
//
// A new standings snapshot (a result) or a change of the membership (the league's version)
// makes every old page of the league unreachable at once; the TTL removes them. Redis holds
// only what PostgreSQL rebuilds.
type Cache struct {
	rdb    *redis.Client
	prefix string
	// downUntil (unix nanoseconds): after a Redis error, reads skip Redis for a moment, so that
	// an outage costs requests nothing rather than a timeout each.
	downUntil atomic.Int64
}

const (
	pageTTL        = 60 * time.Second
	skipAfterError = time.Second
	readBudget     = 250 * time.Millisecond
)

var (
	errMiss = errors.New("league page not cached")
	errDown = errors.New("redis failed a moment ago; skipped")
)

// NewCache uses rdb (platform/cache.Connect: short timeouts, no retries) under prefix.
func NewCache(rdb *redis.Client, prefix string) *Cache { return &Cache{rdb: rdb, prefix: prefix} }

// PageKey is the key of one page of a league's table.
func (c *Cache) PageKey(grupo, tabla, version int64, pagina, porPagina int) string {
	return fmt.Sprintf("%sgrupos:g%d:t%d:v%d:%d:%d", c.prefix, grupo, tabla, version, pagina, porPagina)
}

// Get returns a cached page: errMiss when Redis does not have it, errDown or Redis's error
// when Redis cannot answer.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, error) {
	if time.Now().UnixNano() < c.downUntil.Load() {
		return nil, errDown
	}
	ctx, cancel := context.WithTimeout(ctx, readBudget)
	defer cancel()
	body, err := c.rdb.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, errMiss
	}
	if err != nil {
		return nil, c.failed(ctx, err)
	}
	return body, nil
}

// Put caches a page.
func (c *Cache) Put(ctx context.Context, key string, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, readBudget)
	defer cancel()
	if err := c.rdb.Set(ctx, key, body, pageTTL).Err(); err != nil {
		return c.failed(ctx, err)
	}
	c.downUntil.Store(0)
	return nil
}

// failed remembers that Redis failed, unless the caller gave up.
func (c *Cache) failed(ctx context.Context, err error) error {
	if !errors.Is(ctx.Err(), context.Canceled) {
		c.downUntil.Store(time.Now().Add(skipAfterError).UnixNano())
	}
	return err
}
