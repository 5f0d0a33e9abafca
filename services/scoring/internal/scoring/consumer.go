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
//
// Its connection is the process's one LISTENing session: other channels are heard on it too
// (Subscribe), so that a replica holds one connection for all it listens to. Passes run on a
// goroutine of their own, so that a long pass (a result at many players takes seconds) never
// delays what the other channels hear.
type Consumer struct {
	conn        *pgx.ConnConfig
	processor   Processor
	poll        time.Duration
	log         *slog.Logger
	minBackoff  time.Duration
	maxBackoff  time.Duration
	subscribers map[string]Subscriber
	wake        chan struct{} // a pass is wanted (capacity 1: wake-ups during a pass make one more)
}

// Subscriber hears one channel on the consumer's connection.
type Subscriber interface {
	// Listening: the connection LISTENs (at start and again after every reconnection); what was
	// notified while it was away was not heard.
	Listening()
	// Notified: a notification's payload. It runs on the listening goroutine: return at once.
	Notified(payload string)
	// Lost: the connection is gone; nothing is heard until Listening.
	Lost()
}

// reconnectMaxBackoff bounds the wait between two attempts to open the consumer's connection.
// Results reach the standings only through that connection (its notifications and its poll),
// so after an outage scoring resumes within this of PostgreSQL's return: at 10 s, a result
// entered after a 30 s outage was scored 6.9 s after the return (TestPostgresOutage with
// PGDOWN_SECONDS=30). One attempt a replica every 1 to 2 s costs PostgreSQL nothing.
const reconnectMaxBackoff = 2 * time.Second

// listenerConnectTimeout bounds opening the consumer's connection when the URL names no
// connect_timeout. No request waits on it (a lost connection is retried with backoff), so it
// is not the services' 2 s: at 2 s, the dial timed out on the cluster
// test's node while every pod was replaced under load, and the consumer logged a failed
// connection and started again.
const listenerConnectTimeout = 10 * time.Second

// NewConsumer listens through a dedicated connection to databaseURL.
func NewConsumer(databaseURL string, processor Processor, poll time.Duration, log *slog.Logger) (*Consumer, error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = listenerConnectTimeout
	}
	cfg.RuntimeParams["application_name"] = ListenerName
	return &Consumer{conn: cfg, processor: processor, poll: poll, log: log,
		minBackoff: 100 * time.Millisecond, maxBackoff: reconnectMaxBackoff,
		subscribers: map[string]Subscriber{}, wake: make(chan struct{}, 1)}, nil
}

// Subscribe has the consumer's connection LISTEN on channel too, for sub. Call it before Run.
func (c *Consumer) Subscribe(channel string, sub Subscriber) { c.subscribers[channel] = sub }

// Run consumes until ctx ends, reconnecting with backoff whenever PostgreSQL goes away, and
// returns once no pass runs any more.
func (c *Consumer) Run(ctx context.Context) {
	passes := make(chan struct{})
	go func() {
		defer close(passes)
		c.passOnWake(ctx)
	}()
	defer func() { <-passes }()
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
	for _, channel := range c.channels() {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
			return false, err
		}
	}
	for _, sub := range c.subscribers {
		sub.Listening()
	}
	defer func() {
		for _, sub := range c.subscribers {
			sub.Lost()
		}
	}()
	c.log.Info("scoring consumer listening", slog.Any("channels", c.channels()), slog.Duration("poll", c.poll))
	c.nudge() // catch up
	// The poll keeps its own time: notifications of other channels, however many, must not
	// put it off.
	nextPoll := time.Now().Add(c.poll)
	for {
		waitCtx, cancel := context.WithDeadline(ctx, nextPoll)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return true, nil
		case err == nil:
			if sub, ok := c.subscribers[n.Channel]; ok {
				sub.Notified(n.Payload)
			} else {
				c.nudge() // the outbox's payload (the event id) is not needed: a pass reads them all
			}
		case waitCtx.Err() != nil && pgconn.Timeout(err):
			// Poll interval elapsed. Check the connection still works, or a silently dropped
			// one would leave us on polling alone.
			if err := conn.Ping(ctx); err != nil {
				return true, err
			}
			c.nudge()
			nextPoll = time.Now().Add(c.poll)
		default:
			return true, err
		}
	}
}

// channels are the outbox's channel and the subscribers'.
func (c *Consumer) channels() []string {
	channels := []string{events.Channel}
	for channel := range c.subscribers {
		channels = append(channels, channel)
	}
	return channels
}

// nudge asks for a pass, without waiting for it.
func (c *Consumer) nudge() {
	select {
	case c.wake <- struct{}{}:
	default: // one is asked for already
	}
}

// passOnWake runs a pass each time one is asked for, until ctx ends.
func (c *Consumer) passOnWake(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
			c.pass(ctx)
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
