package standings

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"prode/scoring/internal/metrics"
	"prode/scoring/internal/store"
)

// oneTournament is a store of one current tournament (id 1) whose table is snapshot 7.
type oneTournament struct{}

func (oneTournament) Tournaments(context.Context) ([]store.Torneo, error) {
	return []store.Torneo{{ID: 1, Actual: true}}, nil
}
func (oneTournament) LastPlayer(context.Context) (int64, error) { return 0, nil }
func (oneTournament) Latest(context.Context) ([]store.Tabla, error) {
	return []store.Tabla{{ID: 7, Torneo: 1}}, nil
}
func (oneTournament) Build(context.Context, int64, bool, string) (store.Tabla, error) {
	return store.Tabla{ID: 7, Torneo: 1}, nil
}
func (oneTournament) UpToDate(context.Context, int64, bool, string) (store.Tabla, bool, error) {
	return store.Tabla{}, false, nil
}
func (oneTournament) CarryAhead(context.Context, int64, []int64, string, string, []int64, func(store.Tabla)) (func(), error) {
	return nil, nil
}
func (oneTournament) Player(context.Context, store.Tabla, bool, int64, int) (store.MiPosicion, error) {
	return store.MiPosicion{}, nil
}
func (oneTournament) MatchdayPage(context.Context, int64, int64, time.Time, int, int) (store.Pagina, error) {
	return store.Pagina{}, nil
}
func (oneTournament) Matchdays(context.Context, int64, int64, string) (store.Fechas, error) {
	return store.Fechas{}, nil
}
func (oneTournament) RowsAgree(context.Context, int64, int64, string) (bool, error) { return true, nil }

func newService(st Store, rdb *redis.Client, freshFor time.Duration, reg prometheus.Registerer) *Service {
	return New(st, NewCache(rdb, "test:"), freshFor, time.UTC, nil, &metrics.New(reg).Standings, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// slowStore answers Page only once released, counting the reads.
type slowStore struct {
	oneTournament
	reads   atomic.Int32
	release chan struct{}
}

func (s *slowStore) Page(ctx context.Context, _ store.Version, pagina, porPagina int) (store.Pagina, error) {
	s.reads.Add(1)
	select {
	case <-s.release:
	case <-ctx.Done():
		return store.Pagina{}, ctx.Err()
	}
	return store.Pagina{Version: 7, Pagina: pagina, PorPagina: porPagina, Posiciones: []store.Posicion{{Nombre: "Ana"}}}, nil
}

// When Redis cannot answer (or a page expired) while many requests want the page, PostgreSQL
// reads it once for all of them, and a request whose client leaves does not fail the others.
func TestConcurrentMissesReadThePageOnce(t *testing.T) {
	st := &slowStore{release: make(chan struct{})}
	unreachable := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	t.Cleanup(func() { _ = unreachable.Close() })
	svc := newService(st, unreachable, 0, prometheus.NewRegistry())

	const requests = 50
	leaving, leave := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	bodies := make([][]byte, requests)
	errs := make([]error, requests)
	for i := range requests {
		ctx := context.Background()
		if i == 0 {
			ctx = leaving // the first caller, whose read the others share, gives up
		}
		wg.Go(func() { bodies[i], errs[i] = svc.Page(ctx, 1, "", 1, 100) })
	}
	deadline := time.Now().Add(5 * time.Second)
	for st.reads.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // every request has reached the read by now
	leave()
	time.Sleep(50 * time.Millisecond)
	close(st.release)
	wg.Wait()

	if n := st.reads.Load(); n != 1 {
		t.Fatalf("%d requests read the page from PostgreSQL %d times, want once", requests, n)
	}
	for i := 1; i < requests; i++ {
		if errs[i] != nil || len(bodies[i]) == 0 {
			t.Fatalf("request %d: %q %v", i, bodies[i], errs[i])
		}
	}
	if errs[0] == nil {
		t.Error("the request whose client left got an answer")
	}
}

// gatedStore answers each Page read once a value is sent on next, naming the page after the
// read's number, so that answers of different reads differ.
type gatedStore struct {
	oneTournament
	reads atomic.Int32
	next  chan struct{}
}

func (s *gatedStore) Page(ctx context.Context, _ store.Version, pagina, porPagina int) (store.Pagina, error) {
	n := s.reads.Add(1)
	select {
	case <-s.next:
	case <-ctx.Done():
		return store.Pagina{}, ctx.Err()
	}
	return store.Pagina{Version: 7, Pagina: pagina, PorPagina: porPagina, Posiciones: []store.Posicion{{Nombre: fmt.Sprintf("read %d", n)}}}, nil
}

// Once its page is no longer fresh, a request that cannot get it from Redis is answered at once
// with the page held from moments ago while one read from PostgreSQL runs for everyone; the
// next requests get what that read returned. Nobody waits for the database.
func TestAStalePageIsServedWhileItIsReadAgain(t *testing.T) {
	st := &gatedStore{next: make(chan struct{}, 1)}
	unreachable := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	t.Cleanup(func() { _ = unreachable.Close() })
	reg := prometheus.NewRegistry()
	svc := newService(st, unreachable, 50*time.Millisecond, reg)
	ctx := context.Background()

	st.next <- struct{}{}
	first, err := svc.Page(ctx, 1, "", 1, 100)
	if err != nil || !strings.Contains(string(first), "read 1") {
		t.Fatalf("first read: %q %v", first, err)
	}
	time.Sleep(100 * time.Millisecond) // no longer fresh

	// The database does not answer yet: every request still gets the page it had, at once.
	for i := range 20 {
		start := time.Now()
		body, err := svc.Page(ctx, 1, "", 1, 100)
		if err != nil || string(body) != string(first) {
			t.Fatalf("request %d while the page is read again: %q %v", i, body, err)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Fatalf("request %d waited %s for the database", i, d)
		}
	}
	for wait := time.Now().Add(2 * time.Second); st.reads.Load() < 2 && time.Now().Before(wait); {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	if n := st.reads.Load(); n != 2 {
		t.Fatalf("%d reads from PostgreSQL, want the first and one more for all the stale answers", n)
	}

	st.next <- struct{}{} // the read again returns
	deadline := time.Now().Add(5 * time.Second)
	for {
		body, err := svc.Page(ctx, 1, "", 1, 100)
		if err == nil && strings.Contains(string(body), "read 2") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page read again never replaced the stale one: %q %v", body, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := testutil.ToFloat64(svc.requests.WithLabelValues("stale")); got < 20 {
		t.Errorf("stale answers counted: %v, want at least 20", got)
	}
}

// A page held longer than staleFor is not served: the request waits for PostgreSQL.
func TestAPageTooOldIsNotServedStale(t *testing.T) {
	st := &gatedStore{next: make(chan struct{}, 1)}
	unreachable := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	t.Cleanup(func() { _ = unreachable.Close() })
	svc := newService(st, unreachable, 50*time.Millisecond, prometheus.NewRegistry())
	clock := time.Now()
	svc.localOf(1).now = func() time.Time { return clock }

	st.next <- struct{}{}
	if _, err := svc.Page(context.Background(), 1, "", 1, 100); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(staleFor)
	st.next <- struct{}{}
	body, err := svc.Page(context.Background(), 1, "", 1, 100)
	if err != nil || !strings.Contains(string(body), "read 2") {
		t.Fatalf("a page %s old was served instead of read again: %q %v", staleFor, body, err)
	}
}

// downStore answers Page with err once failing is set (PostgreSQL down, or a refused query).
type downStore struct {
	oneTournament
	failing atomic.Bool
	err     error
}

func (s *downStore) Page(_ context.Context, _ store.Version, pagina, porPagina int) (store.Pagina, error) {
	if s.failing.Load() {
		return store.Pagina{}, s.err
	}
	return store.Pagina{Version: 7, Pagina: pagina, PorPagina: porPagina, Posiciones: []store.Posicion{{Nombre: "Ana"}}}, nil
}

// While PostgreSQL cannot be reached, a page held longer than staleFor, and one of the table
// before a newer one was announced, is still served (no result can be entered meanwhile); a
// page never read fails, and so does every page when the database refuses the query instead.
func TestAHeldPageIsServedWhilePostgreSQLIsDown(t *testing.T) {
	unreachable := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	t.Cleanup(func() { _ = unreachable.Close() })
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		err   error
		serve bool
	}{
		{"unreachable", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{"shutting down", &pgconn.PgError{Code: "57P01"}, true},
		{"refused", &pgconn.PgError{Code: "42501"}, false},
	} {
		st := &downStore{err: c.err}
		svc := newService(st, unreachable, 50*time.Millisecond, prometheus.NewRegistry())
		clock := time.Now()
		svc.localOf(1).now = func() time.Time { return clock }
		first, err := svc.Page(ctx, 1, "", 1, 100)
		if err != nil {
			t.Fatal(err)
		}
		st.failing.Store(true)
		clock = clock.Add(staleFor)
		body, err := svc.Page(ctx, 1, "", 1, 100)
		if served := err == nil && string(body) == string(first); served != c.serve {
			t.Errorf("%s, %s after the page was read: %q %v, want it served: %v", c.name, staleFor, body, err, c.serve)
		}
		svc.Moved(1, 8)
		body, err = svc.Page(ctx, 1, "", 1, 100)
		if served := err == nil && string(body) == string(first); served != c.serve {
			t.Errorf("%s, once table 8 was announced: %q %v, want table 7's page served: %v", c.name, body, err, c.serve)
		}
		if body, err := svc.Page(ctx, 1, "", 2, 100); err == nil {
			t.Errorf("%s: a page never read was served: %q", c.name, body)
		}
	}
}
