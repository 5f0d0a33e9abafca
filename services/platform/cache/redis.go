// Package cache connects to Redis, which holds only what can be rebuilt from PostgreSQL:
// short timeouts so that an absent Redis costs a request milliseconds, not seconds.
package cache

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisLogger routes go-redis's own messages (dial failures during an outage) into the
// service's JSON log instead of plain text on stderr.
type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(_ context.Context, format string, v ...any) {
	l.log.Warn("redis", slog.String("message", fmt.Sprintf(format, v...)))
}

// UseLogger sends go-redis's messages to log. go-redis keeps one logger per process.
func UseLogger(log *slog.Logger) { redis.SetLogger(redisLogger{log: log}) }

// Connect parses a redis:// URL. A password, when not "", is the one Redis wants (REDIS_PASSWORD),
// given apart from the URL as PGPASSWORD is for PostgreSQL: any character stands in it, where
// in the URL's user part it would need escaping.
func Connect(url, password string) (*redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	if password != "" {
		opts.Password = password
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
