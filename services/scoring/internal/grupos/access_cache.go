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
//
// A notification costs the same however many accesses are remembered, since a 'Salir' anywhere
// in the game reaches every replica: it does not look for the entries it names under the lock,
// it notes what it ended (endings), and get refuses an entry remembered before that. An ending
// is kept only as long as such an entry could still be fresh.
type AccessCache struct {
	freshFor time.Duration
	now      func() time.Time

	mu        sync.Mutex
	listening bool
	// generation counts what was heard: a read begun in an earlier one is not kept, and an entry
	// is stamped with the one it was kept in.
	generation uint64
	entries    map[accessKey]accessEntry
	sesiones   endings[string] // sessions ended ('Salir')
	grupos     endings[int64]  // leagues whose members changed
	torneos    endings[int64]  // tournaments with a new standings snapshot
}

type accessKey struct {
	grupo, jugador int64
	sesion         string
}

type accessEntry struct {
	acceso     store.Acceso
	at         time.Time
	generation uint64
}

// accessFreshFor bounds how long an access is remembered.
const accessFreshFor = 5 * time.Second

// maxAccessEntries bounds the memory (about 160 bytes an entry): more members reading at once
// than this make the process forget them all and ask again, which needs no order kept.
const maxAccessEntries = 50_000

func newAccessCache(freshFor time.Duration) *AccessCache {
	c := &AccessCache{freshFor: freshFor, now: time.Now}
	c.clear()
	return c
}

// get answers a remembered access still fresh and ended by nothing heard since, while listening.
func (c *AccessCache) get(k accessKey) (store.Acceso, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok || !c.listening {
		return store.Acceso{}, false
	}
	if c.now().Sub(e.at) >= c.freshFor || c.sesiones.since(k.sesion, e.generation) ||
		c.grupos.since(k.grupo, e.generation) || c.torneos.since(e.acceso.Torneo, e.generation) {
		delete(c.entries, k)
		return store.Acceso{}, false
	}
	return e.acceso, true
}

// begin is called before asking PostgreSQL: put keeps the answer only if nothing was heard in
// between (the answer might predate the change that was heard).
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
	if _, again := c.entries[k]; !again && len(c.entries) >= maxAccessEntries {
		c.clear()
	}
	c.entries[k] = accessEntry{acceso: a, at: c.now(), generation: c.generation}
}

// Listening (scoring.Subscriber): from now on every change is heard; what changed before is
// not known, so everything is forgotten.
func (c *AccessCache) Listening() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clear()
	c.listening = true
}

// Lost (scoring.Subscriber): changes are not heard any more; nothing is remembered until
// Listening.
func (c *AccessCache) Lost() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clear()
	c.listening = false
}

// Notified (scoring.Subscriber) ends what the payload names (events.AccessChannel); a payload
// it does not know makes it forget everything.
func (c *AccessCache) Notified(payload string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.generation++
	now := c.now()
	if sesion, ok := strings.CutPrefix(payload, events.SessionEndedPrefix); ok {
		c.sesiones.add(sesion, c.generation, now)
	} else if grupo, ok := idAfter(payload, events.LeagueChangedPrefix); ok {
		c.grupos.add(grupo, c.generation, now)
	} else if torneo, ok := idAfter(payload, events.TableChangedPrefix); ok {
		c.torneos.add(torneo, c.generation, now)
	} else {
		c.clear()
		return
	}
	// An entry kept before an ending is stale freshFor after it: the ending can go.
	stale := now.Add(-c.freshFor)
	c.sesiones.forgetBefore(stale)
	c.grupos.forgetBefore(stale)
	c.torneos.forgetBefore(stale)
}

// clear forgets every entry, and any read in flight. Called with mu held (or before the cache
// is shared).
func (c *AccessCache) clear() {
	c.generation++
	c.entries = map[accessKey]accessEntry{}
	c.sesiones = newEndings[string]()
	c.grupos = newEndings[int64]()
	c.torneos = newEndings[int64]()
}

// endings are the sessions, leagues or tournaments whose access a notification ended, each
// with the generation it was heard in, in the order heard.
type endings[K comparable] struct {
	at    map[K]uint64
	queue []ending[K]
}

type ending[K comparable] struct {
	key        K
	generation uint64
	heard      time.Time
}

func newEndings[K comparable]() endings[K] { return endings[K]{at: map[K]uint64{}} }

func (e *endings[K]) add(k K, generation uint64, heard time.Time) {
	e.at[k] = generation
	e.queue = append(e.queue, ending[K]{k, generation, heard})
}

// since reports whether k was ended after an entry of generation was kept.
func (e *endings[K]) since(k K, generation uint64) bool {
	g, ok := e.at[k]
	return ok && g > generation
}

// forgetBefore drops the endings heard before t (a key ended again since keeps its last).
func (e *endings[K]) forgetBefore(t time.Time) {
	for len(e.queue) > 0 && e.queue[0].heard.Before(t) {
		first := e.queue[0]
		if e.at[first.key] == first.generation {
			delete(e.at, first.key)
		}
		e.queue = e.queue[1:]
	}
}

func idAfter(payload, prefix string) (int64, bool) {
	rest, ok := strings.CutPrefix(payload, prefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	return id, err == nil
}
