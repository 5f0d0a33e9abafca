package grupos

import "sync"

// recentPages keeps the league table pages this process served lately, so that a league's
// members reading its table again cost no Redis round trip (and, with their access remembered
// by AccessCache, no PostgreSQL one). A page's key names the league, the snapshot and the membership version it
// was read at, so a kept page is never stale: a new result or member makes a new key, and the
// old pages are only ever evicted.
type recentPages struct {
	mu    sync.Mutex
	pages map[string][]byte
}

// maxRecentPages bounds the memory: about 12 KiB a page of 100 rows, so 3 MiB. Leagues read at
// once in their first pages fit; when more are read the process forgets them all at once and
// the busy pages come back on their next read (from Redis), which needs no order kept.
const maxRecentPages = 256

func newRecentPages() *recentPages { return &recentPages{pages: map[string][]byte{}} }

func (r *recentPages) get(key string) ([]byte, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	body, ok := r.pages[key]
	return body, ok
}

func (r *recentPages) put(key string, body []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pages) >= maxRecentPages {
		clear(r.pages)
	}
	r.pages[key] = body
}
