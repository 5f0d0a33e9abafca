package standings

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"prode/platform/testenv"
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
	url, prefix := testenv.Redis(t)
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { _ = rdb.Close() })
	svc := New(newerInDatabase{}, NewCache(rdb, prefix), 0, time.UTC, nil, prometheus.NewRegistry(), slog.New(slog.DiscardHandler))
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
