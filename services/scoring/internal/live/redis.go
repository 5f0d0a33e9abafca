package live

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisIdle is how long the subscription may stay silent before Run pings Redis through it;
// a ping unanswered for as long again means a dead connection, which is replaced.
const redisIdle = 10 * time.Second

// subscribe follows the Redis channel, subscribing again after any failure (with a pause that
// grows to 2 s), until ctx ends. Messages published while it was down are lost: the polling
// brings their events.
func (h *Hub) subscribe(ctx context.Context) {
	pause := 100 * time.Millisecond
	failing := false
	for {
		ps := h.rdb.Subscribe(ctx, h.channel)
		// go-redis's reads do not watch the context: closing the subscription ends them.
		unwatch := context.AfterFunc(ctx, func() { _ = ps.Close() })
		err := h.receive(ctx, ps, func() {
			pause = 100 * time.Millisecond
			if failing {
				failing = false
				h.log.Info("live: following the Redis channel again")
			}
		})
		unwatch()
		_ = ps.Close()
		if ctx.Err() != nil {
			return
		}
		if !failing {
			failing = true
			h.log.Warn("live: the Redis channel failed; polling PostgreSQL meanwhile", slog.String("error", err.Error()))
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// receive reads one subscription until it fails; ok is called on every reply.
func (h *Hub) receive(ctx context.Context, ps *redis.PubSub, ok func()) error {
	pinged := false
	for {
		msg, err := ps.ReceiveTimeout(ctx, redisIdle)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && !pinged && ctx.Err() == nil {
				if err := ps.Ping(ctx); err != nil {
					return err
				}
				pinged = true
				continue
			}
			return err
		}
		pinged = false
		ok()
		if m, isMsg := msg.(*redis.Message); isMsg {
			if e, valid := parsePayload(m.Payload); valid {
				h.broadcast(e, "redis")
			} else {
				h.log.Warn("live: ignored a message that is no standings event", slog.Int("bytes", len(m.Payload)))
			}
		}
	}
}
