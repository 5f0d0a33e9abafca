package live

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"prode/platform/testenv"
)

// A page's stream gets the event of a new standings version within well under the 2 s the
// game promises, with the SSE headers, the retry field first.
func TestAnnouncedEventReachesAnOpenStream(t *testing.T) {
	url, prefix := testenv.Redis(t)
	r := startReplica(t, replicaConfig{redisURL: url, prefix: prefix})
	c := r.open(t, "")
	for name, want := range map[string]string{
		"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no", "X-Request-Id": "test",
	} {
		if got := c.resp.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if c.resp.ContentLength != -1 || len(c.resp.TransferEncoding) != 0 || !c.resp.Close {
		t.Errorf("body framing: length %d, transfer-encoding %v, close %v; want a body that ends with the connection",
			c.resp.ContentLength, c.resp.TransferEncoding, c.resp.Close)
	}
	c.expectStart()
	c.expectNothing(100 * time.Millisecond)

	start := time.Now()
	if err := r.hub.Announce(context.Background(), Event{ID: 41, Torneo: 1}); err != nil {
		t.Fatal(err)
	}
	c.expectEvent(Event{ID: 41, Torneo: 1}, 2*time.Second)
	if took := time.Since(start); took > 200*time.Millisecond {
		t.Errorf("the event took %v to arrive, want well under 2 s", took)
	}
	// Announced again (Redis brings it back, polling reads it): never sent twice.
	_ = r.hub.Announce(context.Background(), Event{ID: 41, Torneo: 1})
	c.expectNothing(200 * time.Millisecond)
}

// Another replica (another hub on the same Redis) broadcasts what this one announced, through
// the Redis channel alone (it does not poll).
func TestAnotherReplicaBroadcastsAnAnnouncedEvent(t *testing.T) {
	url, prefix := testenv.Redis(t)
	a := startReplica(t, replicaConfig{redisURL: url, prefix: prefix})
	heard := make(chan time.Time, 10) // b's OnEvent
	b := startReplica(t, replicaConfig{redisURL: url, prefix: prefix, opts: Options{OnEvent: func(e Event) {
		if e != (Event{ID: 7, Torneo: 3}) {
			t.Errorf("OnEvent(%+v)", e)
		}
		heard <- time.Now()
	}}})
	subscribed(t, url, b.hub.channel, 2)
	onA, onB := a.open(t, ""), b.open(t, "")
	onA.expectStart()
	onB.expectStart()

	start := time.Now()
	if err := a.hub.Announce(context.Background(), Event{ID: 7, Torneo: 3}); err != nil {
		t.Fatal(err)
	}
	at := onB.expectEvent(Event{ID: 7, Torneo: 3}, 2*time.Second)
	onA.expectEvent(Event{ID: 7, Torneo: 3}, time.Second)
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("the other replica's stream got the event after %v", took)
	}
	// Its OnEvent (the standings' local pages) heard of it once, before its streams did.
	select {
	case h := <-heard:
		if !h.Before(at) {
			t.Errorf("OnEvent ran %v after the stream had the event", h.Sub(at))
		}
	default:
		t.Error("OnEvent was not called")
	}
	_ = b.hub.Announce(context.Background(), Event{ID: 7, Torneo: 3})
	if len(heard) != 0 {
		t.Error("OnEvent was called again for an event the hub held")
	}
	if got := broadcasts(b.hub, "redis"); got != 1 {
		t.Errorf("the other replica broadcast %v events from Redis, want 1", got)
	}
	if got := broadcasts(a.hub, "redis"); got != 0 {
		t.Errorf("the announcing replica broadcast its own event again from Redis (%v)", got)
	}
}

// A reconnecting browser sends the last id it got and receives every newer held event, one per
// tournament (a newer version supersedes the older), oldest first; then the new ones.
func TestReconnectCatchesUpFromLastEventID(t *testing.T) {
	r := startReplica(t, replicaConfig{})
	ctx := context.Background()
	for _, e := range []Event{{ID: 3, Torneo: 1}, {ID: 7, Torneo: 1}, {ID: 9, Torneo: 2}, {ID: 5, Torneo: 1}} {
		_ = r.hub.Announce(ctx, e) // 5 is older than 7: ignored
	}
	if got := fmt.Sprint(r.hub.Held()); got != "[{7 1} {9 2}]" {
		t.Fatalf("held %s, want [{7 1} {9 2}]", got)
	}

	fresh := r.open(t, "")
	fresh.expectStart()
	fresh.expectEvent(Event{ID: 7, Torneo: 1}, time.Second)
	fresh.expectEvent(Event{ID: 9, Torneo: 2}, time.Second)

	behind := r.open(t, "8")
	behind.expectStart()
	behind.expectEvent(Event{ID: 9, Torneo: 2}, time.Second)

	upToDate := r.open(t, "9")
	upToDate.expectStart()
	notOurs := r.open(t, "x") // the test handler reads it as 0, as the scoring handler does
	notOurs.expectStart()
	notOurs.expectEvent(Event{ID: 7, Torneo: 1}, time.Second)
	notOurs.expectEvent(Event{ID: 9, Torneo: 2}, time.Second)
	upToDate.expectNothing(100 * time.Millisecond)

	_ = r.hub.Announce(ctx, Event{ID: 12, Torneo: 1})
	for _, c := range []*client{fresh, behind, upToDate, notOurs} {
		c.expectEvent(Event{ID: 12, Torneo: 1}, time.Second)
		c.expectNothing(50 * time.Millisecond)
	}
}

// Every stream gets a comment every heartbeat, events or not.
func TestHeartbeat(t *testing.T) {
	r := startReplica(t, replicaConfig{opts: Options{Heartbeat: 50 * time.Millisecond}})
	c := r.open(t, "")
	c.expectStart()
	start := time.Now()
	pings := 0
	for pings < 3 {
		select {
		case f := <-c.frames:
			if f.comment != "ping" {
				t.Fatalf("got %+v, want only heartbeats", f)
			}
			pings++
		case <-time.After(time.Second):
			t.Fatalf("%d heartbeats in %v, want one every 50 ms", pings, time.Since(start))
		}
	}
}

// A client that stopped reading fills its socket; the write to it times out and it is
// dropped, while the others, on the same writer, get every event meanwhile within 1 s.
func TestClientThatStopsReadingIsDroppedWithoutHoldingUpOthers(t *testing.T) {
	r := startReplica(t, replicaConfig{opts: Options{Writers: 1}, sendBuffer: 4096})
	stuck := rawStream(t, r, 1024)
	healthy := r.open(t, "")
	healthy.expectStart()
	testenv.Until(t, 2*time.Second, "two streams open", func() bool { return r.hub.Open() == 2 })

	ctx := context.Background()
	var id int64
	for dropped(r.hub, "write") == 0 {
		id++
		if id > 5000 {
			t.Fatalf("%d events sent and the client that does not read is still open", id-1)
		}
		start := time.Now()
		_ = r.hub.Announce(ctx, Event{ID: id, Torneo: 1})
		healthy.expectEvent(Event{ID: id, Torneo: 1}, time.Second)
		if took := time.Since(start); took > time.Second {
			t.Fatalf("event %d took %v to reach the healthy client", id, took)
		}
	}
	t.Logf("the client that does not read was dropped after %d events", id)
	testenv.Until(t, time.Second, "one stream open", func() bool { return r.hub.Open() == 1 })
	_ = stuck
}

// A client that closed its stream is found at the next heartbeat and its slot freed, with
// no event to write to it.
func TestClosedClientIsFoundAtTheHeartbeat(t *testing.T) {
	r := startReplica(t, replicaConfig{opts: Options{Heartbeat: 50 * time.Millisecond}})
	c := r.open(t, "")
	c.expectStart()
	if r.hub.Open() != 1 || testutil.ToFloat64(r.hub.m.Open) != 1 {
		t.Fatalf("%d streams open (prode_live_streams_open %v), want 1", r.hub.Open(), testutil.ToFloat64(r.hub.m.Open))
	}
	c.close()
	testenv.Until(t, 2*time.Second, "the closed stream released", func() bool { return r.hub.Open() == 0 })
	if open := testutil.ToFloat64(r.hub.m.Open); open != 0 {
		t.Errorf("prode_live_streams_open %v once the stream was released, want 0", open)
	}
	if dropped(r.hub, "gone") != 1 || dropped(r.hub, "write") != 0 {
		t.Errorf("dropped: gone %v, write %v; want it found gone before any write failed", dropped(r.hub, "gone"), dropped(r.hub, "write"))
	}
}

// With Redis down, the replicas still broadcast: the announcing one at once, the others by
// polling PostgreSQL; when Redis is back, the channel works again.
func TestPollingDeliversWhileRedisIsDown(t *testing.T) {
	redisServer := testenv.NewRedisServer(t)
	_, prefix := testenv.Redis(t)
	db := &latestVar{}
	a := startReplica(t, replicaConfig{redisURL: redisServer.URL(), prefix: prefix})
	b := startReplica(t, replicaConfig{redisURL: redisServer.URL(), prefix: prefix, latest: db.read,
		opts: Options{Poll: 200 * time.Millisecond}})
	subscribed(t, redisServer.URL(), a.hub.channel, 2)
	onA, onB := a.open(t, ""), b.open(t, "")
	onA.expectStart()
	onB.expectStart()

	redisServer.Kill()
	ctx := context.Background()
	e := Event{ID: 20, Torneo: 1}
	db.set(e) // the scoring transaction committed it
	start := time.Now()
	if err := a.hub.Announce(ctx, e); err == nil {
		t.Error("Announce with Redis down: no error")
	}
	onA.expectEvent(e, time.Second)
	onB.expectEvent(e, 2*time.Second)
	if took := time.Since(start); took > time.Second {
		t.Errorf("the other replica got the event %v after it was announced, want within its 200 ms poll", took)
	}
	if broadcasts(b.hub, "poll") != 1 {
		t.Errorf("the other replica broadcast %v events from polling, want 1", broadcasts(b.hub, "poll"))
	}

	redisServer.Start()
	subscribed(t, redisServer.URL(), a.hub.channel, 2) // b's subscription came back
	e = Event{ID: 21, Torneo: 1}                       // not in db: only Redis can bring it to b
	if err := a.hub.Announce(ctx, e); err != nil {
		t.Fatal(err)
	}
	onB.expectEvent(e, time.Second)
	onA.expectEvent(e, time.Second)
}

// Beyond MaxStreams, Reserve refuses (the handler answers 503); a closed stream frees its slot.
func TestStreamLimit(t *testing.T) {
	r := startReplica(t, replicaConfig{opts: Options{MaxStreams: 2, Heartbeat: 50 * time.Millisecond}})
	first := r.open(t, "")
	second := r.open(t, "")
	first.expectStart()
	second.expectStart()
	if _, status := r.tryOpen(t, ""); status != http.StatusServiceUnavailable {
		t.Fatalf("a third stream: status %d, want 503", status)
	}
	if got := r.hub.Open(); got != 2 {
		t.Errorf("%d streams counted after a refusal, want 2", got)
	}
	first.close()
	testenv.Until(t, 2*time.Second, "the closed stream's slot freed", func() bool { return r.hub.Open() == 1 })
	third := r.open(t, "")
	third.expectStart()
}

// Close (shutdown) ends every stream at once and refuses new ones; Run returns.
func TestCloseEndsStreams(t *testing.T) {
	r := startReplica(t, replicaConfig{})
	streams := []*client{r.open(t, ""), r.open(t, "")}
	for _, c := range streams {
		c.expectStart()
	}
	r.hub.Close()
	for _, c := range streams {
		c.expectEnd(time.Second)
	}
	if err := r.hub.Reserve(); err != ErrClosed {
		t.Errorf("Reserve after Close: %v, want ErrClosed", err)
	}
	if _, status := r.tryOpen(t, ""); status != http.StatusServiceUnavailable {
		t.Errorf("a stream after Close: status %d, want 503", status)
	}
	if got := r.hub.Open(); got != 0 {
		t.Errorf("%d streams counted after Close, want 0", got)
	}
}

// rawStream opens a stream from a socket with a small receive buffer that is never read after
// the response head.
func rawStream(t *testing.T, r *replica, receiveBuffer int) net.Conn {
	t.Helper()
	d := net.Dialer{Control: nil}
	conn, err := d.Dial("tcp", strings.TrimPrefix(r.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.(*net.TCPConn).SetReadBuffer(receiveBuffer); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, "GET /api/eventos HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 200 ") {
		t.Fatalf("status line %q, %v", status, err)
	}
	return conn
}
