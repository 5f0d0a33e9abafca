package http

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"prode/platform/cache"
	"prode/platform/httpserver"
	"prode/platform/testenv"
	"prode/scoring/internal/live"
	"prode/scoring/internal/metrics"
)

// eventsService is scoring's HTTP server (the shared middleware, httpserver.Run's draining)
// with /api/eventos and a hub, started as main.go starts them. stop is SIGTERM.
type eventsService struct {
	hub    *live.Hub
	server *httpserver.Server
	addr   string
	stop   func()
	done   chan struct{} // closed once the server drained and the hub stopped, as main returns
}

func startEventsService(t *testing.T, opts live.Options) *eventsService {
	t.Helper()
	redisURL, prefix := testenv.Redis(t)
	rdb, err := cache.Connect(redisURL, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	log := slog.New(slog.NewTextHandler(t.Output(), nil))
	port := testenv.FreePort(t)
	server := httpserver.New(httpserver.Config{Service: "scoring", HTTPAddr: "127.0.0.1:" + strconv.Itoa(port),
		AdminAddr: "127.0.0.1:0", ShutdownTimeout: 10 * time.Second}, log)
	hub := live.New(rdb, prefix, nil, &metrics.New(server.Registry).Live, log, opts)
	events := &EventsHandlers{Hub: hub}
	server.Engine.GET("/api/eventos", events.stream) // as routes.go

	ctx, stop := context.WithCancel(context.Background())
	workCtx, stopWork := context.WithCancel(context.Background())
	s := &eventsService{hub: hub, server: server, addr: "127.0.0.1:" + strconv.Itoa(port), stop: stop, done: make(chan struct{})}
	hubDone := make(chan struct{})
	go func() { hub.Run(workCtx); close(hubDone) }()
	go func() {
		defer close(s.done)
		if err := server.Run(ctx); err != nil {
			t.Errorf("server: %v", err)
		}
		stopWork()
		<-hubDone
	}()
	t.Cleanup(func() {
		stop()
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			t.Error("the service did not stop within 15 s")
		}
	})
	testenv.Until(t, 5*time.Second, "the server listens", func() bool {
		c, err := net.Dial("tcp", s.addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return s
}

// sse is a stream read line by line, as raw bytes on the socket (what a proxy sees).
type sse struct {
	t      *testing.T
	conn   net.Conn
	r      *bufio.Reader
	status int
	header http.Header
	close  bool // Connection: close
}

// open sends GET path with the given headers and reads the response head.
func (s *eventsService) open(t *testing.T, path string, header map[string]string) *sse {
	t.Helper()
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	req := "GET " + path + " HTTP/1.1\r\nHost: prode.test\r\n"
	for k, v := range header {
		req += k + ": " + v + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &sse{t: t, conn: conn, r: r, status: resp.StatusCode, header: resp.Header, close: resp.Close}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		st.header.Set("X-Test-Body", string(body))
	}
	return st
}

// block reads the next block of lines up to a blank line, within d.
func (s *sse) block(d time.Duration) (string, error) {
	_ = s.conn.SetReadDeadline(time.Now().Add(d))
	var b strings.Builder
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return b.String(), err
		}
		if line == "\n" {
			return b.String(), nil
		}
		b.WriteString(line)
	}
}

func (s *sse) expect(want string, d time.Duration) {
	s.t.Helper()
	got, err := s.block(d)
	if err != nil || got != want {
		s.t.Fatalf("got %q (%v), want %q", got, err, want)
	}
}

func event(id, torneo int64) string {
	return "id: " + strconv.FormatInt(id, 10) + "\nevent: posiciones\ndata: {\"torneo\":" + strconv.FormatInt(torneo, 10) +
		",\"version\":" + strconv.FormatInt(id, 10) + "}\n"
}

// Through the real middleware: the SSE headers and the platform's (request id, security
// headers), a body that ends with the connection (no chunking, which a hand-written head must
// not claim), retry first, then each event as it is announced.
func TestEventsStream(t *testing.T) {
	s := startEventsService(t, live.Options{})
	st := s.open(t, "/api/eventos", map[string]string{"X-Request-Id": "req-1"})
	if st.status != http.StatusOK {
		t.Fatalf("status %d: %s", st.status, st.header.Get("X-Test-Body"))
	}
	for name, want := range map[string]string{
		"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no",
		"X-Request-Id": "req-1", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
		"Content-Length": "", "Transfer-Encoding": "",
	} {
		if got := st.header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if !st.close {
		t.Error("no Connection: close")
	}
	st.expect("retry: 3000\n", time.Second)
	start := time.Now()
	_ = s.hub.Announce(context.Background(), live.Event{ID: 5, Torneo: 2})
	st.expect(event(5, 2), time.Second)
	if took := time.Since(start); took > 200*time.Millisecond {
		t.Errorf("the event took %v", took)
	}
}

// A page passes the version it shows (?ultimo=), a reconnecting browser Last-Event-ID: the
// stream sends only the newer held events (the larger of the two counts).
func TestEventsCatchUp(t *testing.T) {
	s := startEventsService(t, live.Options{})
	ctx := context.Background()
	_ = s.hub.Announce(ctx, live.Event{ID: 7, Torneo: 1})
	_ = s.hub.Announce(ctx, live.Event{ID: 9, Torneo: 2})

	for _, c := range []struct {
		name   string
		path   string
		header map[string]string
		want   []string
	}{
		{"nothing", "/api/eventos", nil, []string{event(7, 1), event(9, 2)}},
		{"ultimo", "/api/eventos?ultimo=8", nil, []string{event(9, 2)}},
		{"Last-Event-ID", "/api/eventos", map[string]string{"Last-Event-ID": "7"}, []string{event(9, 2)}},
		{"both, the larger", "/api/eventos?ultimo=3", map[string]string{"Last-Event-ID": "8"}, []string{event(9, 2)}},
		{"up to date", "/api/eventos?ultimo=9", nil, nil},
		{"Last-Event-ID not ours", "/api/eventos", map[string]string{"Last-Event-ID": "abc"}, []string{event(7, 1), event(9, 2)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := s.open(t, c.path, c.header)
			if st.status != http.StatusOK {
				t.Fatalf("status %d", st.status)
			}
			st.expect("retry: 3000\n", time.Second)
			for _, want := range c.want {
				st.expect(want, time.Second)
			}
			if got, err := st.block(100 * time.Millisecond); err == nil {
				t.Errorf("then %q, want nothing more", got)
			}
		})
	}
}

// A bad ?ultimo= is a 400; a full replica a 503 with Retry-After, in the platform's JSON error,
// as the contract says (and the page then polls).
func TestEventsRefusals(t *testing.T) {
	s := startEventsService(t, live.Options{MaxStreams: 1})
	api := testenv.NewAPI(t, s.server.Engine)
	for _, q := range []string{"abc", "-1", "1.5"} {
		res := api.Do(http.MethodGet, "/api/eventos?ultimo="+q, nil)
		if res.Status != http.StatusBadRequest || res.ErrorCode() != "datos_invalidos" {
			t.Errorf("?ultimo=%s: %d %s, want 400 datos_invalidos", q, res.Status, res.Body)
		}
	}

	first := s.open(t, "/api/eventos", nil)
	if first.status != http.StatusOK {
		t.Fatalf("first stream: status %d", first.status)
	}
	full := s.open(t, "/api/eventos", nil)
	var body struct{ Error, RequestID string }
	_ = json.Unmarshal([]byte(full.header.Get("X-Test-Body")), &body)
	if full.status != http.StatusServiceUnavailable || body.Error != "servicio_no_disponible" || full.header.Get("Retry-After") == "" {
		t.Errorf("beyond the limit: %d %s (Retry-After %q), want 503 servicio_no_disponible with Retry-After",
			full.status, full.header.Get("X-Test-Body"), full.header.Get("Retry-After"))
	}
	res := api.Do(http.MethodGet, "/api/eventos", nil) // also full; the contract checks the answer
	if res.Status != http.StatusServiceUnavailable {
		t.Errorf("beyond the limit, recorded: %d %s, want 503", res.Status, res.Body)
	}
	if got := s.hub.Open(); got != 1 {
		t.Errorf("%d streams counted, want 1", got)
	}
}

// SIGTERM: the server drains (http.Server.Shutdown does not wait for the hijacked streams) and
// the streams end, so that browsers reconnect to another replica; the service stops promptly.
func TestEventsShutdownClosesStreams(t *testing.T) {
	s := startEventsService(t, live.Options{})
	streams := []*sse{s.open(t, "/api/eventos", nil), s.open(t, "/api/eventos", nil)}
	for _, st := range streams {
		st.expect("retry: 3000\n", time.Second)
	}
	start := time.Now()
	s.stop()
	for _, st := range streams {
		if got, err := st.block(5 * time.Second); err != io.EOF {
			t.Errorf("after SIGTERM the stream read %q, %v; want its end (EOF)", got, err)
		}
	}
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the service did not stop within 5 s of SIGTERM")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("stopping took %v: the drain waited on the streams", took)
	}
}
