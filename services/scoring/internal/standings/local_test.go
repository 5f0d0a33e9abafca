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

// The version the board reads at is kept for freshFor, unless a newer table is announced or the
// reader registered after it; an older one never replaces it.
func TestLocalPagesKeepTheCurrentVersionBriefly(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLocalPages(time.Second)
	l.now = func() time.Time { return now }
	v7 := store.Version{Tabla: store.Tabla{ID: 7, JugadoresHasta: 40}, Jugadores: 50}
	if _, ok := l.currentFor(0); ok {
		t.Fatal("a version was kept before any was read")
	}
	l.rememberCurrent(v7)
	if v, ok := l.currentFor(50); !ok || v != v7 {
		t.Fatalf("kept version for player 50: %+v %v, want version 7", v, ok)
	}
	if _, ok := l.currentFor(51); ok {
		t.Error("player 51 registered after the kept version, and got it")
	}
	l.rememberCurrent(store.Version{Tabla: store.Tabla{ID: 6}, Jugadores: 60})
	if v, _ := l.currentFor(0); v != v7 {
		t.Errorf("an older table replaced the kept version: %+v", v)
	}
	l.moved(8)
	if _, ok := l.currentFor(0); ok {
		t.Error("the kept version outlived the announcement of a newer table")
	}
	l.rememberCurrent(store.Version{Tabla: store.Tabla{ID: 8}})
	now = now.Add(time.Second)
	if _, ok := l.currentFor(0); ok {
		t.Error("the kept version outlived freshFor")
	}
}
