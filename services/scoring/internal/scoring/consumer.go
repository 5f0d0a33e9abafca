package scoring

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"prode/platform/events"
)

// ListenerName is the application_name of the consumer's own connection.
const ListenerName = "prode-scoring-listener"

// Processor applies pending outbox events (Service).
type Processor interface {
	ProcessPending(ctx context.Context) (int, error)
}

// Consumer wakes scoring on NOTIFY or every poll interval. NOTIFY only wakes it: the outbox
// table is the truth, so an event committed while the consumer was away (stopped, restarting,
// disconnected) is applied at the next pass, and a lost notification costs at most one poll.
type Consumer struct {
	conn       *pgx.ConnConfig
	processor  Processor
	poll       time.Duration
	log        *slog.Logger
	minBackoff time.Duration
	maxBackoff time.Duration
}

// NewConsumer listens through a dedicated connection to databaseURL.
func NewConsumer(databaseURL string, processor Processor, poll time.Duration, log *slog.Logger) (*Consumer, error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout == 0 || cfg.ConnectTimeout > 2*time.Second {
		cfg.ConnectTimeout = 2 * time.Second
	}
	cfg.RuntimeParams["application_name"] = ListenerName
	return &Consumer{conn: cfg, processor: processor, poll: poll, log: log,
		minBackoff: 100 * time.Millisecond, maxBackoff: 10 * time.Second}, nil
}

// Run consumes until ctx ends, reconnecting with backoff whenever PostgreSQL goes away.
func (c *Consumer) Run(ctx context.Context) {
	backoff := c.minBackoff
	for {
		connected, err := c.listen(ctx)
		if ctx.Err() != nil {
			return
		}
		if connected {
			backoff = c.minBackoff
		}
		wait := backoff/2 + rand.N(backoff/2+1) // jitter, so replicas do not reconnect in step
		c.log.Warn("scoring consumer disconnected; reconnecting",
			slog.String("error", errString(err)), slog.Duration("in", wait))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		backoff = min(2*backoff, c.maxBackoff)
	}
}

// listen opens the connection, LISTENs, catches up, then processes on every notification
// and every poll interval. It returns when the connection fails (connected: it had worked).
func (c *Consumer) listen(ctx context.Context) (connected bool, err error) {
	conn, err := pgx.ConnectConfig(ctx, c.conn)
	if err != nil {
		return false, err
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = conn.Close(closeCtx)
	}()
	// LISTEN before catching up: an event committed in between is both caught up and
	// notified, never neither.
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{events.Channel}.Sanitize()); err != nil {
		return false, err
	}
	c.log.Info("scoring consumer listening", slog.String("channel", events.Channel), slog.Duration("poll", c.poll))
	for {
		c.pass(ctx)
		waitCtx, cancel := context.WithTimeout(ctx, c.poll)
		_, err := conn.WaitForNotification(waitCtx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return true, nil
		case err == nil:
			// Woken by NOTIFY: the payload (the event id) is not needed, the pass reads them all.
		case waitCtx.Err() != nil && pgconn.Timeout(err):
			// Poll interval elapsed. Check the connection still works, or a silently dropped
			// one would leave us on polling alone.
			if err := conn.Ping(ctx); err != nil {
				return true, err
			}
		default:
			return true, err
		}
	}
}

func (c *Consumer) pass(ctx context.Context) {
	n, err := c.processor.ProcessPending(ctx)
	if err != nil && ctx.Err() == nil {
		c.log.Warn("scoring pass failed; retrying at the next wake-up", slog.Int("processed", n), slog.String("error", err.Error()))
		return
	}
	if n > 0 {
		c.log.Debug("scoring pass", slog.Int("processed", n))
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
