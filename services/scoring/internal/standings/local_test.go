package standings

import (
	"testing"
	"time"

	"prode/scoring/internal/store"
)

func TestLocalPagesServeOnlyFreshVersions(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLocalPages(time.Second)
	l.now = func() time.Time { return now }

	if _, ok := l.get(pageKey{pagina: 1, porPagina: 100}); ok {
		t.Fatal("an empty cache answered")
	}
	l.put(Version{Tabla: 7}, pageKey{pagina: 1, porPagina: 100}, []byte("v7"))
	if body, ok := l.get(pageKey{pagina: 1, porPagina: 100}); !ok || string(body) != "v7" {
		t.Fatalf("fresh page: %q %v", body, ok)
	}
	if _, ok := l.get(pageKey{pagina: 2, porPagina: 100}); ok {
		t.Fatal("a page never stored answered")
	}

	l.put(Version{Tabla: 6}, pageKey{pagina: 1, porPagina: 100}, []byte("v6"))
	if body, _ := l.get(pageKey{pagina: 1, porPagina: 100}); string(body) != "v7" {
		t.Fatalf("an older version replaced the page: %q", body)
	}

	now = now.Add(time.Second)
	if _, ok := l.get(pageKey{pagina: 1, porPagina: 100}); ok {
		t.Fatal("a page served after its version went unconfirmed for freshFor")
	}

	l.put(Version{Tabla: 8}, pageKey{pagina: 2, porPagina: 100}, []byte("v8 page 2"))
	if _, ok := l.get(pageKey{pagina: 1, porPagina: 100}); ok {
		t.Fatal("page 1 of version 7 served after version 8 was seen")
	}
	if body, ok := l.get(pageKey{pagina: 2, porPagina: 100}); !ok || string(body) != "v8 page 2" {
		t.Fatalf("page 2 of version 8: %q %v", body, ok)
	}
}

func TestLocalPagesAreBounded(t *testing.T) {
	l := newLocalPages(time.Minute)
	for p := 1; p <= 2*maxLocalPages; p++ {
		l.put(Version{Tabla: 1}, pageKey{pagina: p, porPagina: 100}, []byte("x"))
	}
	if len(l.pages) != maxLocalPages {
		t.Fatalf("%d pages kept, want %d", len(l.pages), maxLocalPages)
	}
}

// The snapshot the board reads at is kept for freshFor, unless a newer table is announced; an
// older one never replaces it.
func TestLocalPagesKeepTheCurrentSnapshotBriefly(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLocalPages(time.Second)
	l.now = func() time.Time { return now }
	t7 := store.Tabla{ID: 7, JugadoresHasta: 40}
	if _, ok := l.currentTabla(); ok {
		t.Fatal("a snapshot was kept before any was read")
	}
	l.rememberCurrent(t7)
	if got, ok := l.currentTabla(); !ok || got != t7 {
		t.Fatalf("kept snapshot: %+v %v, want 7", got, ok)
	}
	l.rememberCurrent(store.Tabla{ID: 6})
	if got, _ := l.currentTabla(); got != t7 {
		t.Errorf("an older table replaced the kept one: %+v", got)
	}
	l.moved(8)
	if _, ok := l.currentTabla(); ok {
		t.Error("the kept snapshot outlived the announcement of a newer table")
	}
	l.rememberCurrent(store.Tabla{ID: 8})
	now = now.Add(time.Second)
	if _, ok := l.currentTabla(); ok {
		t.Error("the kept snapshot outlived freshFor")
	}
}
