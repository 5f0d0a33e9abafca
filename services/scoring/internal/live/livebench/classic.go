package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"prode/scoring/internal/live"
)

// classic is the design the hub replaces, for comparison: each stream stays in its handler,
// with its goroutine and net/http's connection buffers, woken by a channel per stream.
type classic struct {
	mu      sync.Mutex
	streams map[chan struct{}]struct{}
	latest  atomic.Pointer[live.Event]
}

func newClassic() *classic { return &classic{streams: map[chan struct{}]struct{}{}} }

func (c *classic) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.streams)
}

func (c *classic) announce(_ context.Context, e live.Event) {
	c.latest.Store(&e)
	c.mu.Lock()
	defer c.mu.Unlock()
	for ch := range c.streams {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (c *classic) stream(g *gin.Context) {
	w := g.Writer
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, "retry: 3000\n\n")
	_ = rc.Flush()
	ch := make(chan struct{}, 1)
	c.mu.Lock()
	c.streams[ch] = struct{}{}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.streams, ch)
		c.mu.Unlock()
	}()
	ping := time.NewTicker(live.DefaultHeartbeat)
	defer ping.Stop()
	for {
		var err error
		select {
		case <-g.Request.Context().Done():
			return
		case <-ch:
			e := c.latest.Load()
			_, err = fmt.Fprintf(w, "id: %d\nevent: posiciones\ndata: {\"torneo\":%d,\"version\":%d}\n\n", e.ID, e.Torneo, e.ID)
		case <-ping.C:
			_, err = io.WriteString(w, ": ping\n\n")
		}
		if err != nil || rc.Flush() != nil {
			return
		}
	}
}
