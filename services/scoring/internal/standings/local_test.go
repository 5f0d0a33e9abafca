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

// held answers, however old, the newest page held for a key: the current version's, else an
// older version's (a table announced but not yet read), never a page never stored; it is
// bounded like the pages.
func TestLocalPagesHoldTheNewestPageOfEachKey(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLocalPages(time.Second)
	l.now = func() time.Time { return now }
	p1, p2, p3 := pageKey{pagina: 1, porPagina: 50}, pageKey{pagina: 2, porPagina: 50}, pageKey{pagina: 3, porPagina: 50}
	l.put(Version{Tabla: 7}, p1, []byte("v7 page 1"))
	l.put(Version{Tabla: 7}, p2, []byte("v7 page 2"))
	now = now.Add(time.Hour)
	if body, ok := l.held(p1); !ok || string(body) != "v7 page 1" {
		t.Fatalf("held page 1 an hour on: %q %v", body, ok)
	}
	l.moved(8)
	l.put(Version{Tabla: 8}, p1, []byte("v8 page 1"))
	l.moved(9)
	for k, want := range map[pageKey]string{p1: "v8 page 1", p2: "v7 page 2"} {
		if body, ok := l.held(k); !ok || string(body) != want {
			t.Errorf("held page %d after version 9 was announced: %q %v, want %q", k.pagina, body, ok, want)
		}
	}
	if body, ok := l.held(p3); ok {
		t.Errorf("a page never stored was held: %q", body)
	}
	if _, ok := l.get(p1); ok {
		t.Error("get served an older version's page")
	}

	for p := 1; p <= 2*maxLocalPages; p++ {
		l.put(Version{Tabla: int64(10 + p)}, pageKey{pagina: p, porPagina: 100}, []byte("x"))
	}
	if len(l.previous) > maxLocalPages {
		t.Fatalf("%d older pages kept, want %d at most", len(l.previous), maxLocalPages)
	}
	if _, ok := newLocalPages(0).held(p1); ok {
		t.Error("a process that keeps no pages held one")
	}
}
