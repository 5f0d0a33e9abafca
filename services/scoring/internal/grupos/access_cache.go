package grupos

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"prode/platform/events"
	"prode/scoring/internal/store"
)

// AccessCache remembers, for a few seconds, the members whose session and membership
// store.GruposStore.Access confirmed, so that a member reading their league's table again
// costs no PostgreSQL round trip: it was most of the read's cost (docs/benchmarks.md).
//
// What can end a member's access is heard on events.AccessChannel through the scoring
// consumer's connection, from the statement that changes it: 'Salir' (players), a member
// leaving or removed or a league deleted, and a new standings snapshot (scoring), which the
// remembered access also names. The cache forgets what a notification names when it is heard,
// and remembers nothing while the connection is not listening (at start, and from the moment
// it is lost until it listens again, when it forgets everything): a change is never missed,
// only heard a few milliseconds after it commits. What no notification names (a session that
// expires, the tournament made current or not) takes at most accessFreshFor.
//
// Only granted access is remembered: a refusal is asked of PostgreSQL every time.
type AccessCache struct {
	freshFor time.Duration
	now      func() time.Time

	mu         sync.Mutex
	listening  bool
	generation uint64 // moves with everything forgotten, so that a read begun before is not kept
	entries    map[accessKey]accessEntry
}

type accessKey struct {
	grupo, jugador int64
	sesion         string
}

type accessEntry struct {
	acceso store.Acceso
	at     time.Time
}

// accessFreshFor bounds how long an access is remembered.
const accessFreshFor = 5 * time.Second

// maxAccessEntries bounds the memory (about 150 bytes an entry): more members reading at once
// than this make the process forget them all and ask again, which needs no order kept.
const maxAccessEntries = 50_000

func newAccessCache(freshFor time.Duration) *AccessCache {
	return &AccessCache{freshFor: freshFor, now: time.Now, entries: map[accessKey]accessEntry{}}
}

// get answers a remembered access still fresh, while listening.
func (c *AccessCache) get(k accessKey) (store.Acceso, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok || !c.listening || c.now().Sub(e.at) >= c.freshFor {
		return store.Acceso{}, false
	}
	return e.acceso, true
}

// begin is called before asking PostgreSQL: put keeps the answer only if nothing was forgotten
// in between (the answer might predate the change that was heard).
func (c *AccessCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.generation
}

// put remembers a granted access read since begin answered generation.
func (c *AccessCache) put(k accessKey, a store.Acceso, generation uint64) {
	if !a.Sesion || !a.Existe || !a.Miembro {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.listening || generation != c.generation {
		return
	}
	if len(c.entries) >= maxAccessEntries {
		clear(c.entries)
	}
	c.entries[k] = accessEntry{acceso: a, at: c.now()}
}

// forget drops the entries that match, and any read in flight.
func (c *AccessCache) forget(match func(accessKey, store.Acceso) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.generation++
	for k, e := range c.entries {
		if match(k, e.acceso) {
			delete(c.entries, k)
		}
	}
}

func everything(accessKey, store.Acceso) bool { return true }

// Listening (scoring.Subscriber): from now on every change is heard; what changed before is
// not known, so everything is forgotten.
func (c *AccessCache) Listening() {
	c.forget(everything)
	c.mu.Lock()
	c.listening = true
	c.mu.Unlock()
}

// Lost (scoring.Subscriber): changes are not heard any more; nothing is remembered until
// Listening.
func (c *AccessCache) Lost() {
	c.mu.Lock()
	c.listening = false
	c.mu.Unlock()
	c.forget(everything)
}

// Notified (scoring.Subscriber) forgets what the payload names (events.AccessChannel); a
// payload it does not know makes it forget everything.
func (c *AccessCache) Notified(payload string) {
	if sesion, ok := strings.CutPrefix(payload, events.SessionEndedPrefix); ok {
		c.forget(func(k accessKey, _ store.Acceso) bool { return k.sesion == sesion })
		return
	}
	if grupo, ok := idAfter(payload, events.LeagueChangedPrefix); ok {
		c.forget(func(k accessKey, _ store.Acceso) bool { return k.grupo == grupo })
		return
	}
	if torneo, ok := idAfter(payload, events.TableChangedPrefix); ok {
		c.forget(func(_ accessKey, a store.Acceso) bool { return a.Torneo == torneo })
		return
	}
	c.forget(everything)
}

func idAfter(payload, prefix string) (int64, bool) {
	rest, ok := strings.CutPrefix(payload, prefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	return id, err == nil
}
