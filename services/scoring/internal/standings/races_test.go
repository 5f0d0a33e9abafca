package standings

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"prode/platform/testenv"
	"prode/scoring/internal/metrics"
	"prode/scoring/internal/store"
)

// newerInDatabase is a tournament whose newest table in PostgreSQL is snapshot 8; its pages
// say which snapshot they were read at.
type newerInDatabase struct{ oneTournament }

func (newerInDatabase) Latest(context.Context) ([]store.Tabla, error) {
	return []store.Tabla{{ID: 8, Torneo: 1}}, nil
}
func (newerInDatabase) Page(_ context.Context, v store.Version, pagina, porPagina int) (store.Pagina, error) {
	return store.Pagina{Version: v.ID, Pagina: pagina, PorPagina: porPagina,
		Posiciones: []store.Posicion{{Nombre: fmt.Sprintf("tabla %d", v.ID)}}}, nil
}

// A browser told of table 8 (the PostgreSQL poll, or another replica, announced it before
// Redis's version key moved) and fetching the page must get table 8, not Redis's table 7: no
// later event would send it back for the newer one.
func TestAnAnnouncedTableIsServedBeforeRedisMovesToIt(t *testing.T) {
	svc := raceService(t, newerInDatabase{})
	ctx := context.Background()

	older := Version{Tabla: 7}
	k := pageKey{pagina: 1, porPagina: 100}
	if err := svc.cache.Store(ctx, 1, older, k, []byte(`{"posiciones":[{"nombre":"tabla 7"}]}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.cache.SetVersion(ctx, 1, older); err != nil {
		t.Fatal(err)
	}
	body, err := svc.Page(ctx, 1, "", 1, 100)
	if err != nil || !strings.Contains(string(body), "tabla 7") {
		t.Fatalf("before any announcement Redis's table is served: %s %v", body, err)
	}

	svc.Moved(1, 8)
	body, err = svc.Page(ctx, 1, "", 1, 100)
	if err != nil || !strings.Contains(string(body), "tabla 8") {
		t.Fatalf("after table 8 was announced, the page is %s (%v), want table 8's", body, err)
	}
}

// buildingStore ranks a table from points it reads when the build starts; the first build
// waits until released, as a slow build would.
type buildingStore struct {
	oneTournament
	points  atomic.Int64
	release chan struct{}

	mu     sync.Mutex
	tablas []store.Tabla
	seen   map[int64]int64 // each table's points
}

func (s *buildingStore) Latest(context.Context) ([]store.Tabla, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.tablas) == 0 {
		return nil, nil
	}
	return []store.Tabla{s.tablas[len(s.tablas)-1]}, nil
}

func (s *buildingStore) Build(context.Context, int64, bool, string) (store.Tabla, error) {
	points := s.points.Load()
	s.mu.Lock()
	first := len(s.seen) == 0
	id := int64(len(s.seen) + 1)
	s.seen[id] = points
	s.mu.Unlock()
	if first {
		<-s.release
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := store.Tabla{ID: id, Torneo: 1}
	s.tablas = append(s.tablas, t)
	return t, nil
}

func (s *buildingStore) Page(_ context.Context, v store.Version, pagina, porPagina int) (store.Pagina, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return store.Pagina{Version: v.ID, Pagina: pagina, PorPagina: porPagina,
		Posiciones: []store.Posicion{{Nombre: "ana", Puntaje: s.seen[v.ID]}}}, nil
}

// Scoring's rebuild after it commits points must not share a build that read the points
// before (a first read of the standings building the missing table at the same moment): the
// table published would lack them, and nothing would build it again until the next result.
func TestARebuildAfterACommitDoesNotShareAnOlderBuild(t *testing.T) {
	st := &buildingStore{release: make(chan struct{}), seen: map[int64]int64{}}
	svc := raceService(t, st)
	ctx := context.Background()

	read := make(chan error, 1)
	go func() { _, err := svc.Page(ctx, 1, "", 1, 100); read <- err }() // builds the missing table, slowly
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		st.mu.Lock()
		started := len(st.seen) > 0
		st.mu.Unlock()
		if started {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first read did not start a build")
		}
	}
	st.points.Store(10) // scoring commits ana's 10 points
	rebuilt := make(chan error, 1)
	go func() { rebuilt <- svc.Rebuild(ctx, []int64{1}) }()
	time.Sleep(100 * time.Millisecond) // the rebuild has reached the build by now
	close(st.release)
	if err := <-rebuilt; err != nil {
		t.Fatal(err)
	}
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	body, err := svc.Page(ctx, 1, "", 1, 100)
	if err != nil || !strings.Contains(string(body), `"puntaje":10`) {
		t.Fatalf("after the rebuild the standings are %s (%v), want ana's 10 points", body, err)
	}
}

// raceService is the service over st, with the test Redis, keeping nothing in memory.
func raceService(t *testing.T, st Store) *Service {
	t.Helper()
	url, prefix := testenv.Redis(t)
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { _ = rdb.Close() })
	return New(st, NewCache(rdb, prefix), 0, time.UTC, nil, &metrics.New(prometheus.NewRegistry()).Standings, slog.New(slog.DiscardHandler))
}
