package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestStreamFigures(t *testing.T) {
	f := streamFigures{Asked: 10000, Streams: 10000, RSSBefore: 20, RSSAfter: 40, Results: 2,
		Latencies: []time.Duration{10 * time.Millisecond, 30 * time.Millisecond, 20 * time.Millisecond},
		Last:      []time.Duration{30 * time.Millisecond, 25 * time.Millisecond}}
	if got := f.RSSPerStream(); got != 20*(1<<20)/10000.0 {
		t.Errorf("RSSPerStream %v", got)
	}
	if got := f.StreamsIn64MiB(); got != 32000 {
		t.Errorf("StreamsIn64MiB %d, want 32000", got)
	}
	md := f.Markdown()
	for _, want := range []string{"10000 open event streams", "| 32000 (goal: 10,000) |", "median 20 ms, p95 30 ms, max 30 ms", "median 30 ms over 2 results"} {
		if !strings.Contains(md, want) {
			t.Errorf("the section lacks %q:\n%s", want, md)
		}
	}
}

// openEventStream reads the head and the retry field of a stream as scoring writes it (a
// hand-written HTTP/1.1 head, the body ending with the connection), leaving the events.
func TestOpenEventStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		_, _ = io.WriteString(conn, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/event-stream\r\n\r\n"+
			"retry: 3000\n\nid: 7\nevent: posiciones\ndata: {\"torneo\":1,\"version\":7}\n\n")
	}))
	defer srv.Close()
	conn, r, err := openEventStream(strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rest, _ := io.ReadAll(r)
	if !strings.HasPrefix(string(rest), "\nid: 7\n") {
		t.Errorf("after the head: %q", rest)
	}
}
