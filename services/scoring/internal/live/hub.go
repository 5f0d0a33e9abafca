// Package live tells open pages that the standings moved, over Server-Sent Events: one stream
// per browser on GET /api/eventos, an event per new standings version.
//
// A Hub holds the newest event of each tournament. Announce (this replica published a new
// version) broadcasts at once and PUBLISHes the event on Redis; Run subscribes to that channel,
// so that every replica broadcasts it within milliseconds, and polls PostgreSQL (Latest) besides,
// so that events still arrive, within Options.Poll, while Redis is down or a message was lost.
// An event not newer than the one held for its tournament is never broadcast again.
//
// Memory: 10,000 open streams must fit in 64 MiB on one replica, and a goroutine with
// net/http's buffers costs more than that per stream. So the handler hijacks the connection,
// and the hub keeps the bare net.Conn: no goroutine, no buffer per stream. A few writer
// goroutines (shards) write each event, and a heartbeat comment every Options.Heartbeat, to
// all of their streams, each write with a short deadline: a stream whose write fails or
// times out is closed (its browser reconnects with Last-Event-ID and catches up), so that a
// client that stopped reading never holds up the others.
package live

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"prode/platform/periodic"
	"prode/scoring/internal/metrics"
)

// Event says that a tournament's standings moved to version ID.
type Event struct {
	// ID is the standings version: the id of the tournament's newest standings snapshot
	// (scoring.tablas_compactas.id), one increasing sequence for every tournament. It is the SSE id,
	// which the browser sends back as Last-Event-ID when it reconnects.
	ID     int64
	Torneo int64
}

// LatestFunc reads the newest event of every tournament from PostgreSQL.
type LatestFunc func(ctx context.Context) ([]Event, error)

// Options tune a Hub; a zero field takes its default.
type Options struct {
	// Heartbeat is how often every stream gets a comment (": ping"), which keeps proxies
	// from timing it out (nginx's proxy_read_timeout is 60 s) and finds closed clients.
	Heartbeat time.Duration
	// Poll is how often Run reads Latest: the longest an event takes to reach this replica's
	// streams when Redis is down (or lost the message).
	Poll time.Duration
	// WriteTimeout bounds each write to a stream. A healthy client's socket buffer never
	// fills with these few bytes, so a write that waits at all is a client that stopped
	// reading: it is dropped.
	WriteTimeout time.Duration
	// MaxStreams is how many streams the replica holds; beyond it, Reserve fails (the handler
	// answers 503 and the page falls back to polling).
	MaxStreams int
	// Writers is the number of goroutines writing to the streams, each to its share.
	Writers int
	// Retry is the reconnection delay sent to browsers (the SSE retry field).
	Retry time.Duration
	// OnEvent, when set, hears of every event the hub takes as new, from any source, before
	// any stream is written to: a replica whose cache of pages trusts itself for a while (the
	// standings' local pages) learns here that a version moved, before the browsers that will
	// ask it for the new table. It must return at once and not call the hub.
	OnEvent func(Event)
}

// Defaults of Options.
const (
	DefaultHeartbeat    = 15 * time.Second
	DefaultPoll         = time.Second
	DefaultWriteTimeout = 250 * time.Millisecond
	DefaultMaxStreams   = 20_000
	DefaultWriters      = 8
	DefaultRetry        = 3 * time.Second
)

func (o Options) withDefaults() Options {
	positiveOr(&o.Heartbeat, DefaultHeartbeat)
	positiveOr(&o.Poll, DefaultPoll)
	positiveOr(&o.WriteTimeout, DefaultWriteTimeout)
	positiveOr(&o.MaxStreams, DefaultMaxStreams)
	positiveOr(&o.Writers, DefaultWriters)
	positiveOr(&o.Retry, DefaultRetry)
	return o
}

// positiveOr sets an option left at zero (or set below it) to its default.
func positiveOr[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

var (
	// ErrFull is Reserve's answer when the replica holds Options.MaxStreams streams.
	ErrFull = errors.New("live: this replica holds as many streams as it may")
	// ErrClosed is Reserve's answer once the hub is shut down.
	ErrClosed = errors.New("live: shutting down")
)

// Hub holds the newest event per tournament and the open streams.
type Hub struct {
	rdb     redis.UniversalClient // nil: one replica, no Redis
	channel string
	latest  LatestFunc // nil: no polling
	log     *slog.Logger
	opts    Options
	m       *metrics.Live

	mu   sync.Mutex
	held map[int64]Event // tournament -> newest event
	snap atomic.Pointer[snapshot]

	open      atomic.Int64 // streams reserved or open
	shards    []*shard
	next      atomic.Uint64
	stop      chan struct{}
	closeOnce sync.Once
}

// snapshot is the held events, immutable once published: sorted by ID, with their bytes on
// the wire. gen grows with every change.
type snapshot struct {
	gen    uint64
	events []wireEvent
}

type wireEvent struct {
	Event
	wire []byte
}

// New builds a hub. rdb and prefix name the Redis channel the replicas share
// (<prefix>posiciones:eventos); latest reads the newest events from PostgreSQL; m counts what
// it does. Run must run for streams to get anything.
func New(rdb redis.UniversalClient, prefix string, latest LatestFunc, m *metrics.Live, log *slog.Logger, opts Options) *Hub {
	h := &Hub{
		rdb: rdb, channel: prefix + "posiciones:eventos", latest: latest, m: m, log: log, opts: opts.withDefaults(),
		held: map[int64]Event{}, stop: make(chan struct{}),
	}
	h.snap.Store(&snapshot{})
	for range h.opts.Writers {
		h.shards = append(h.shards, &shard{hub: h, wake: make(chan struct{}, 1)})
	}
	return h
}

// Announce broadcasts e to this replica's streams at once and publishes it to the other
// replicas through Redis. The error is Redis's: the streams have it already, and the other
// replicas will read it from PostgreSQL within Options.Poll.
func (h *Hub) Announce(ctx context.Context, e Event) error {
	h.broadcast(e, "announce")
	if h.rdb == nil || e.ID <= 0 {
		return nil
	}
	return h.rdb.Publish(ctx, h.channel, payload(e)).Err()
}

// broadcast makes e the held event of its tournament, if it is newer than the one held, and
// wakes the writers. It reports whether e was new.
func (h *Hub) broadcast(e Event, source string) bool {
	if e.ID <= 0 {
		return false
	}
	h.mu.Lock()
	if cur, ok := h.held[e.Torneo]; ok && cur.ID >= e.ID {
		h.mu.Unlock()
		return false
	}
	h.held[e.Torneo] = e
	events := make([]wireEvent, 0, len(h.held))
	for _, ev := range h.held {
		events = append(events, wireEvent{Event: ev, wire: wire(ev)})
	}
	slices.SortFunc(events, func(a, b wireEvent) int { return cmp.Compare(a.ID, b.ID) })
	h.snap.Store(&snapshot{gen: h.snap.Load().gen + 1, events: events})
	h.mu.Unlock()
	h.m.Broadcast.WithLabelValues(source).Inc()
	if h.opts.OnEvent != nil {
		h.opts.OnEvent(e)
	}
	for _, s := range h.shards {
		s.wakeUp()
	}
	return true
}

// Held is the newest event of each tournament, oldest first.
func (h *Hub) Held() []Event {
	snap := h.snap.Load()
	out := make([]Event, len(snap.events))
	for i, e := range snap.events {
		out[i] = e.Event
	}
	return out
}

// Open is the number of streams open (or reserved) now.
func (h *Hub) Open() int { return int(h.open.Load()) }

// Reserve takes a stream slot before the handler hijacks the connection: ErrFull when the
// replica holds MaxStreams, ErrClosed once shut down. A reserved slot must be given to Adopt
// or handed back with Unreserve.
func (h *Hub) Reserve() error {
	select {
	case <-h.stop:
		return ErrClosed
	default:
	}
	if h.open.Add(1) > int64(h.opts.MaxStreams) {
		h.open.Add(-1)
		h.m.Refused.Inc()
		return ErrFull
	}
	h.m.Open.Inc()
	return nil
}

// Unreserve hands back a slot that Reserve took and no stream used.
func (h *Hub) Unreserve() {
	h.open.Add(-1)
	h.m.Open.Dec()
}

// Adopt takes a hijacked connection, and a reserved slot, over: the hub writes head (the HTTP
// response head, see Head), the retry field and every held event newer than last (the
// client's Last-Event-ID), then each new event and the heartbeats, until the connection fails
// or the hub shuts down, and then closes it.
func (h *Hub) Adopt(conn net.Conn, head []byte, last int64) {
	_ = conn.SetDeadline(time.Time{}) // net/http's read and write timeouts are not ours
	st := &stream{conn: conn, head: append(head, "retry: "+strconv.FormatInt(h.opts.Retry.Milliseconds(), 10)+"\n\n"...), last: last}
	s := h.shards[h.next.Add(1)%uint64(len(h.shards))]
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		h.release(st, "")
		return
	}
	s.joining = append(s.joining, st)
	s.mu.Unlock()
	s.wakeUp()
}

// release closes a stream and frees its slot; reason, when not empty, counts it as dropped.
func (h *Hub) release(st *stream, reason string) {
	_ = st.conn.Close()
	h.open.Add(-1)
	h.m.Open.Dec()
	if reason != "" {
		h.m.Dropped.WithLabelValues(reason).Inc()
	}
}

// Run writes to the streams, follows the Redis channel and polls Latest until ctx ends; then
// it closes every stream (Close). Call it once.
func (h *Hub) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, s := range h.shards {
		wg.Go(func() { s.run(h.stop) })
	}
	work, cancel := context.WithCancel(ctx)
	wg.Go(func() {
		<-h.stop // Close stops everything else too
		cancel()
	})
	wg.Go(func() { h.heartbeats(work) })
	if h.rdb != nil {
		wg.Go(func() { h.subscribe(work) })
	}
	if h.latest != nil {
		wg.Go(func() { h.poll(work) })
	}
	<-work.Done()
	h.Close()
	wg.Wait()
}

// Close refuses new streams and closes every open one, whose browsers reconnect (to another
// replica, when this one is shutting down). Call it once the HTTP server stopped taking
// requests: http.Server.Shutdown does not know hijacked connections. Run calls it on return.
func (h *Hub) Close() {
	h.closeOnce.Do(func() {
		close(h.stop)
		for _, s := range h.shards {
			s.close()
		}
	})
}

func (h *Hub) heartbeats(ctx context.Context) {
	periodic.Every(ctx, h.opts.Heartbeat, func(context.Context) {
		for _, s := range h.shards {
			s.ping.Store(true)
			s.wakeUp()
		}
	})
}

// poll reads Latest every Options.Poll and broadcasts what is newer than what the hub holds:
// the path that needs no Redis. One short indexed query a second per replica.
func (h *Hub) poll(ctx context.Context) {
	t := time.NewTicker(h.opts.Poll)
	defer t.Stop()
	failing := false
	for {
		qctx, cancel := context.WithTimeout(ctx, max(h.opts.Poll, time.Second))
		events, err := h.latest(qctx)
		cancel()
		switch {
		case err != nil && ctx.Err() == nil && !failing:
			failing = true
			h.log.Warn("live: reading the newest standings versions failed; retrying", slog.String("error", err.Error()))
		case err == nil && failing:
			failing = false
			h.log.Info("live: reading the newest standings versions again")
		}
		for _, e := range events {
			h.broadcast(e, "poll")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
