package standings

import (
	"sync"
	"time"
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
	version   int64
	confirmed time.Time
	pages     map[pageKey][]byte // only pages of version
}

type pageKey struct{ pagina, porPagina int }

// maxLocalPages bounds the memory: any page number can be asked for, but only the first few
// are asked for often.
const maxLocalPages = 64

func newLocalPages(freshFor time.Duration) *localPages {
	return &localPages{freshFor: freshFor, now: time.Now, pages: map[pageKey][]byte{}}
}

// get returns the page if its version was confirmed within freshFor.
func (l *localPages) get(pagina, porPagina int) ([]byte, bool) {
	return l.confirmedWithin(l.freshFor, pagina, porPagina)
}

// staleFor bounds how old a page may be when served while it is read again (Service.Page):
// as long as a version key lives in Redis without a publish refreshing it.
const staleFor = versionTTL

// stale returns the page if its version was confirmed within staleFor, even if not within
// freshFor: an answer a few seconds old while one request reads the page again, rather than
// every request waiting for that read. A process that keeps no pages (freshFor 0) has none.
func (l *localPages) stale(pagina, porPagina int) ([]byte, bool) {
	if l.freshFor <= 0 {
		return nil, false
	}
	return l.confirmedWithin(staleFor, pagina, porPagina)
}

func (l *localPages) confirmedWithin(maxAge time.Duration, pagina, porPagina int) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.now().Sub(l.confirmed) >= maxAge {
		return nil, false
	}
	body, ok := l.pages[pageKey{pagina, porPagina}]
	return body, ok
}

// put remembers a page read at version, which was current just now. An older version than the
// one held is ignored (a slow reader must not move the standings back).
func (l *localPages) put(version int64, pagina, porPagina int, body []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case version < l.version:
		return
	case version > l.version:
		l.version, l.pages = version, map[pageKey][]byte{}
	}
	l.confirmed = l.now()
	if len(l.pages) < maxLocalPages {
		l.pages[pageKey{pagina, porPagina}] = body
	}
}
