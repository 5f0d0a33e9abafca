package standings

import (
	"testing"
	"time"
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
