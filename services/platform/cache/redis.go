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
	// go-redis retries a failed dial 5 times with 100 ms pauses by default, which made every
	// call during an outage cost up to a second or more; one attempt keeps it within DialTimeout.
	opts.DialerRetries = 1
	return redis.NewClient(opts), nil
}
