package main_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"prode/platform/testenv"
)

// openEvents opens GET /api/eventos on svc and returns a channel of event ids as they arrive.
func openEvents(t *testing.T, svc *testenv.Binary, last int64) <-chan [2]int64 {
	t.Helper()
	conn, err := net.Dial("tcp", svc.API)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, "GET /api/eventos?ultimo="+strconv.FormatInt(last, 10)+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	status, _ := r.ReadString('\n')
	if !strings.HasPrefix(status, "HTTP/1.1 200") {
		t.Fatalf("GET /api/eventos: %q", status)
	}
	ids := make(chan [2]int64, 100)
	go func() {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(ids)
				return
			}
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				var d struct{ Torneo, Version int64 }
				if err := json.Unmarshal([]byte(rest), &d); err != nil {
					t.Errorf("an event that is not JSON: %q: %v", rest, err)
					continue
				}
				ids <- [2]int64{d.Torneo, d.Version}
			}
		}
	}()
	return ids
}

func standingsVersion(t *testing.T, svc *testenv.Binary, torneo int64) int64 {
	res, err := http.Get(svc.URL("/api/posiciones?torneo=" + strconv.FormatInt(torneo, 10)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var p struct{ Version int64 }
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil {
		t.Fatalf("GET /api/posiciones: %v", err)
	}
	return p.Version
}

// Two replicas: a result entered makes the open streams of both hear of the new standings
// version within 2 s; the replica that sent the event then serves that version, and the other
// within a second.
func TestOpenStreamsHearOfAResult(t *testing.T) {
	l := newLeague(t, 50, 4)
	redisURL, prefix := testenv.Redis(t)
	bin := testenv.Build(t, ".")
	a := startScoring(t, bin, l, redisURL, prefix)
	b := startScoring(t, bin, l, redisURL, prefix)
	l.enterResults(l.matches[:1], 0)
	l.waitScored(10 * time.Second)
	time.Sleep(1500 * time.Millisecond)
	v0 := l.version()
	onA, onB := openEvents(t, a, v0), openEvents(t, b, v0)
	standingsVersion(t, a, 1)
	standingsVersion(t, b, 1) // both keep page 1 at v0 locally

	for i := 1; i <= 3; i++ {
		start := time.Now()
		l.enterResults(l.matches[i:i+1], i)
		for name, ch := range map[string]<-chan [2]int64{"a": onA, "b": onB} {
			select {
			case ev := <-ch:
				id := ev[1]
				t.Logf("result %d: replica %s heard of version %d of torneo %d after %v", i, name, id, ev[0], time.Since(start))
				// The replica whose stream told of the version serves it at once (it heard of it
				// before writing the event); the other within a second, as it hears of it
				// through Redis (or, without Redis, the database poll).
				heard, other := a, b
				if name == "b" {
					heard, other = b, a
				}
				if got := standingsVersion(t, heard, ev[0]); got < id {
					t.Errorf("after event %d, replica %s serves version %d", id, name, got)
				}
				deadline := time.Now().Add(time.Second)
				for standingsVersion(t, other, ev[0]) < id {
					if time.Now().After(deadline) {
						t.Errorf("1 s after event %d, the other replica still serves version %d", id, standingsVersion(t, other, ev[0]))
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
			case <-time.After(2*time.Second - time.Since(start)):
				t.Fatalf("result %d: replica %s's stream heard nothing within 2 s", i, name)
			}
		}
	}
}
