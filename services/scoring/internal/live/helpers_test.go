package live

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"prode/platform/cache"
	"prode/platform/testenv"
	"prode/scoring/internal/metrics"
)

// replica is one hub running behind a test server whose handler does what the scoring
// handler does (events_handlers.go): reserve, hijack, adopt.
type replica struct {
	hub *Hub
	srv *httptest.Server
}

type replicaConfig struct {
	redisURL, prefix string     // "" : no Redis
	latest           LatestFunc // nil: no polling
	opts             Options
	// sendBuffer, when set, shrinks the server's socket send buffer of every stream: a slow
	// network, so that a client that stops reading fills it with few events.
	sendBuffer int
}

func startReplica(t *testing.T, cfg replicaConfig) *replica {
	t.Helper()
	var rdb redis.UniversalClient
	if cfg.redisURL != "" {
		c, err := cache.Connect(cfg.redisURL, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		rdb = c
	}
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelInfo}))
	h := New(rdb, cfg.prefix, cfg.latest, &metrics.New(prometheus.NewRegistry()).Live, log, cfg.opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.Run(ctx); close(done) }()

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last, _ := strconv.ParseInt(r.Header.Get("Last-Event-ID"), 10, 64)
		if err := h.Reserve(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			h.Unreserve()
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if cfg.sendBuffer > 0 {
			_ = conn.(*net.TCPConn).SetWriteBuffer(cfg.sendBuffer)
		}
		h.Adopt(conn, Head(http.Header{"X-Request-Id": {"test"}}), last)
	}))
	t.Cleanup(func() {
		srv.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("Run did not return within 5 s of its context's end")
		}
	})
	return &replica{hub: h, srv: srv}
}

// frame is one thing read from a stream: an event (id, event, data), a retry field or a
// comment.
type frame struct {
	id, event, data, retry, comment string
	at                              time.Time
}

// client is an open stream, read by a goroutine of its own into frames.
type client struct {
	t      *testing.T
	resp   *http.Response
	frames chan frame
	done   chan struct{} // closed at the end of the stream
	err    error         // why it ended, after done
}

func (r *replica) open(t *testing.T, lastEventID string) *client {
	t.Helper()
	c, status := r.tryOpen(t, lastEventID)
	if status != http.StatusOK {
		t.Fatalf("GET: status %d, want 200", status)
	}
	return c
}

func (r *replica) tryOpen(t *testing.T, lastEventID string) (*client, int) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, r.srv.URL+"/api/eventos", nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := (&http.Transport{DisableKeepAlives: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, resp.StatusCode
	}
	c := &client{t: t, resp: resp, frames: make(chan frame, 1000), done: make(chan struct{})}
	go c.read()
	t.Cleanup(c.close)
	return c, resp.StatusCode
}

func (c *client) close() { c.resp.Body.Close() }

func (c *client) read() {
	defer close(c.done)
	sc := bufio.NewScanner(c.resp.Body)
	var f frame
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			f.at = time.Now()
			c.frames <- f
			f = frame{}
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "":
			f.comment = value
		case "id":
			f.id = value
		case "event":
			f.event = value
		case "data":
			f.data = value
		case "retry":
			f.retry = value
		default:
			c.err = fmt.Errorf("unknown field in line %q", line)
			return
		}
	}
	c.err = sc.Err()
	if c.err == nil {
		c.err = io.EOF
	}
}

// next is the next frame that is not a comment, within d.
func (c *client) next(d time.Duration) (frame, error) {
	deadline := time.After(d)
	for {
		select {
		case f := <-c.frames:
			if f.comment != "" {
				continue
			}
			return f, nil
		case <-c.done:
			select {
			case f := <-c.frames: // what was read before the end
				if f.comment == "" {
					return f, nil
				}
				continue
			default:
			}
			return frame{}, c.err
		case <-deadline:
			return frame{}, errors.New("nothing within " + d.String())
		}
	}
}

// expectEvent reads the next event within d, checks it is e and says when it was read.
func (c *client) expectEvent(e Event, d time.Duration) time.Time {
	c.t.Helper()
	f, err := c.next(d)
	if err != nil {
		c.t.Fatalf("waiting for event %d of tournament %d: %v", e.ID, e.Torneo, err)
	}
	want := frame{id: strconv.FormatInt(e.ID, 10), event: "posiciones",
		data: fmt.Sprintf(`{"torneo":%d,"version":%d}`, e.Torneo, e.ID), at: f.at}
	if f != want {
		c.t.Fatalf("got %+v, want event %+v", f, want)
	}
	return f.at
}

// expectNothing checks that no event comes within d.
func (c *client) expectNothing(d time.Duration) {
	c.t.Helper()
	if f, err := c.next(d); err == nil {
		c.t.Fatalf("got %+v, want nothing", f)
	}
}

// expectStart reads the retry field that opens every stream.
func (c *client) expectStart() {
	c.t.Helper()
	f, err := c.next(2 * time.Second)
	if err != nil || f.retry != "3000" {
		c.t.Fatalf("first frame %+v (%v), want retry: 3000", f, err)
	}
}

// expectEnd waits for the stream to end within d.
func (c *client) expectEnd(d time.Duration) {
	c.t.Helper()
	select {
	case <-c.done:
	case <-time.After(d):
		c.t.Fatalf("the stream is still open after %v", d)
	}
}

// subscribed waits until n clients follow the hub's Redis channel.
func subscribed(t *testing.T, redisURL, channel string, n int64) {
	t.Helper()
	c, err := cache.Connect(redisURL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	testenv.Until(t, 5*time.Second, "subscribed to "+channel, func() bool {
		got, err := c.PubSubNumSub(context.Background(), channel).Result()
		return err == nil && got[channel] >= n
	})
}

func dropped(h *Hub, reason string) float64 {
	return testutil.ToFloat64(h.m.Dropped.WithLabelValues(reason))
}

func broadcasts(h *Hub, source string) float64 {
	return testutil.ToFloat64(h.m.Broadcast.WithLabelValues(source))
}

// latestVar is a stand-in for PostgreSQL: the newest events, set by the test.
type latestVar struct {
	mu     sync.Mutex
	events []Event
	err    error
}

func (l *latestVar) set(events ...Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = events
}

func (l *latestVar) read(context.Context) ([]Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Event(nil), l.events...), l.err
}
