// Package cache connects to Redis, which holds only what can be rebuilt from PostgreSQL:
// short timeouts so that an absent Redis costs a request milliseconds, not seconds.
package cache

import (
	"time"

	"github.com/redis/go-redis/v9"
)

// Connect parses a redis:// URL.
func Connect(url string) (*redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	opts.DialTimeout = 200 * time.Millisecond
	opts.ReadTimeout = 200 * time.Millisecond
	opts.WriteTimeout = 200 * time.Millisecond
	opts.MaxRetries = 0
	return redis.NewClient(opts), nil
}
