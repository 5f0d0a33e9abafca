package standings

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"prode/scoring/internal/store"
)

// slowStore answers Page only once released, counting the reads.
type slowStore struct {
	reads   atomic.Int32
	release chan struct{}
}

func (s *slowStore) Page(ctx context.Context, pagina, porPagina int) (store.Pagina, error) {
	s.reads.Add(1)
	select {
	case <-s.release:
	case <-ctx.Done():
		return store.Pagina{}, ctx.Err()
	}
	return store.Pagina{Version: 7, Pagina: pagina, PorPagina: porPagina, Posiciones: []store.Posicion{{Nombre: "Ana"}}}, nil
}

func (s *slowStore) Player(context.Context, int64, int) (store.MiPosicion, error) {
	return store.MiPosicion{}, nil
}
func (s *slowStore) Version(context.Context) (int64, error) { return 7, nil }

// When Redis cannot answer (or a page expired) while many requests want the page, PostgreSQL
// reads it once for all of them, and a request whose client leaves does not fail the others.
func TestConcurrentMissesReadThePageOnce(t *testing.T) {
	st := &slowStore{release: make(chan struct{})}
	unreachable := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	t.Cleanup(func() { _ = unreachable.Close() })
	svc := New(st, NewCache(unreachable, "test:"), 0, prometheus.NewRegistry(), slog.New(slog.NewTextHandler(io.Discard, nil)))

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
		wg.Go(func() { bodies[i], errs[i] = svc.Page(ctx, 1, 100) })
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
