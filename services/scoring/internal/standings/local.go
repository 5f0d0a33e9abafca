package standings

import (
	"fmt"
	"sync"
	"time"

	"prode/scoring/internal/store"
)

// localPages keeps recently served pages in the process, so that a match-day rush of standings
// reads costs no Redis round trip at all: a page is answered from memory while this process
// has seen its version confirmed (by Redis, PostgreSQL or its own publish) within the last
// freshFor. A version published by another replica therefore shows here within freshFor;
// one published by this process's consumer shows at once.
type localPages struct {
	freshFor time.Duration
	now      func() time.Time

	mu        sync.Mutex
	version   Version
	confirmed time.Time
	pages     map[pageKey][]byte // only pages of version
	// previous are the newest pages of older versions, for held alone: a table announced just
	// before PostgreSQL went away may not be readable until it is back.
	previous map[pageKey][]byte

	// The newest snapshot as PostgreSQL last had it (Service.Version), and when it was read.
	current   store.Tabla
	currentAt time.Time
}

// pageKey names one cached answer of a tournament: a page of the general table (tabla ""), of
// a matchday's table (tabla "f<date>") or the list of matchdays (tabla "fechas").
type pageKey struct {
	tabla             string
	pagina, porPagina int
}

func (k pageKey) String() string {
	if k.tabla == "" {
		return fmt.Sprintf("%d:%d", k.pagina, k.porPagina)
	}
	return fmt.Sprintf("%s:%d:%d", k.tabla, k.pagina, k.porPagina)
}

// maxLocalPages bounds the memory: any page number can be asked for, but only the first few
// are asked for often.
const maxLocalPages = 64

func newLocalPages(freshFor time.Duration) *localPages {
	return &localPages{freshFor: freshFor, now: time.Now, pages: map[pageKey][]byte{}}
}

// get returns the page if its version was confirmed within freshFor.
func (l *localPages) get(k pageKey) ([]byte, bool) {
	return l.confirmedWithin(l.freshFor, k)
}

// staleFor bounds how old a page may be when served while it is read again (Service.Page):
// as long as a version key lives in Redis without a publish refreshing it.
const staleFor = versionTTL

// stale returns the page if its version was confirmed within staleFor, even if not within
// freshFor: an answer a few seconds old while one request reads the page again, rather than
// every request waiting for that read. A process that keeps no pages (freshFor 0) has none.
func (l *localPages) stale(k pageKey) ([]byte, bool) {
	if l.freshFor <= 0 {
		return nil, false
	}
	return l.confirmedWithin(staleFor, k)
}

// retire keeps the pages of the version being left in previous, over older ones; previous is
// bounded like pages. Called with mu held.
func (l *localPages) retire() {
	if l.previous == nil {
		l.previous = map[pageKey][]byte{}
	}
	for k, body := range l.pages {
		if _, ok := l.previous[k]; ok || len(l.previous) < maxLocalPages {
			l.previous[k] = body
		}
	}
}

// held returns the page of the newest version this process holds, however long ago that
// version was confirmed, or else of an older one: what a reader gets while PostgreSQL
// cannot be reached. An older table than announced is still a table; its version tells the
// browser to ask again (liveQueries' catchUp) until the new one can be read. A process that
// keeps no pages (freshFor 0) has none.
func (l *localPages) held(k pageKey) ([]byte, bool) {
	if l.freshFor <= 0 {
		return nil, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if body, ok := l.pages[k]; ok {
		return body, true
	}
	body, ok := l.previous[k]
	return body, ok
}

func (l *localPages) confirmedWithin(maxAge time.Duration, k pageKey) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.now().Sub(l.confirmed) >= maxAge {
		return nil, false
	}
	body, ok := l.pages[k]
	return body, ok
}

// put remembers a page read at v, which was current just now. An older version than the
// one held is ignored (a slow reader must not move the standings back).
func (l *localPages) put(v Version, k pageKey, body []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.version.newer(v):
		return
	case v.newer(l.version):
		l.retire()
		l.version, l.pages = v, map[pageKey][]byte{}
	}
	l.confirmed = l.now()
	if len(l.pages) < maxLocalPages {
		l.pages[k] = body
	}
}

// moved forgets the pages of a table older than tabla (another replica announced it), and
// refuses them from now on: a read of the older table still in flight must not put it back.
func (l *localPages) moved(tabla int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.current.ID < tabla {
		l.currentAt = time.Time{}
	}
	if l.version.Tabla < tabla {
		l.version = Version{Tabla: tabla}
		l.retire()
		l.pages, l.confirmed = map[pageKey][]byte{}, time.Time{}
	}
}

// rememberCurrent keeps t, the tournament's newest snapshot as PostgreSQL has it now, for
// freshFor (unless a newer table is announced meanwhile); an older one than kept is ignored.
func (l *localPages) rememberCurrent(t store.Tabla) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.current.ID > t.ID {
		return
	}
	l.current, l.currentAt = t, l.now()
}

// currentTabla returns the snapshot kept by rememberCurrent if it is fresh.
func (l *localPages) currentTabla() (store.Tabla, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.now().Sub(l.currentAt) >= l.freshFor {
		return store.Tabla{}, false
	}
	return l.current, true
}

// knowsNewerThan reports whether this process has heard of a newer table than v's (moved).
func (l *localPages) knowsNewerThan(v Version) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.version.Tabla > v.Tabla
}

// knownTabla is the newest table this process has served or heard of.
func (l *localPages) knownTabla() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.version.Tabla
}
