package reveal

import (
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// KeptFor bounds how long a settled match's distribution is kept in memory. Settled predictions
// cannot change (every write after the cut-off is refused, by the database clock), and a
// reschedule changes the cut-off an entry is keyed by; the bound covers what neither notices,
// such as an organiser reopening a match and later putting its kick-off back where it was.
const KeptFor = 10 * time.Minute

// LockingFor is how long a distribution is kept in the minute after the cut-off, when a write
// that started just before it may still commit: the moment the most players open the page at
// once, so it is read at most once in this span rather than once per request.
const LockingFor = 2 * time.Second

// maxKept bounds the entries: one per match asked for (a tournament has at most 104).
const maxKept = 512

// kept holds matches' distributions once locked, and makes the requests that find none share
// one read.
type kept struct {
	settledFor, lockingFor time.Duration
	now                    func() time.Time

	mu      sync.Mutex
	entries map[int64]keptDistribution
	reads   singleflight.Group
}

type keptDistribution struct {
	cierre  time.Time // the cut-off it was read under
	settled bool      // read once settled: kept for settledFor, else for lockingFor
	at      time.Time
	d       Distribucion
}

func newKept(settledFor, lockingFor time.Duration) *kept {
	return &kept{settledFor: settledFor, lockingFor: lockingFor, now: time.Now, entries: map[int64]keptDistribution{}}
}

// fresh says whether e may answer a request for the match under cierre, settled or not.
func (k *kept) fresh(e keptDistribution, cierre time.Time, settled bool) bool {
	switch age := k.now().Sub(e.at); {
	case !e.cierre.Equal(cierre):
		return false
	case e.settled:
		return age < k.settledFor
	default:
		// Read while locking: good for lockingFor, and never as the settled distribution.
		return !settled && age < k.lockingFor
	}
}

// get returns the distribution kept for the match under cierre, or read's, which it keeps.
func (k *kept) get(partido int64, cierre time.Time, settled bool, read func() (Distribucion, error)) (Distribucion, error) {
	k.mu.Lock()
	e, ok := k.entries[partido]
	k.mu.Unlock()
	if ok && k.fresh(e, cierre, settled) {
		return e.d, nil
	}
	v, err, _ := k.reads.Do(fmt.Sprintf("%d@%d/%t", partido, cierre.UnixNano(), settled), func() (any, error) {
		// A request that missed just before another's read was kept (and its flight ended)
		// finds it here instead of reading again.
		k.mu.Lock()
		e, ok := k.entries[partido]
		k.mu.Unlock()
		if ok && k.fresh(e, cierre, settled) {
			return e.d, nil
		}
		d, err := read()
		if err != nil {
			return d, err
		}
		k.mu.Lock()
		defer k.mu.Unlock()
		if _, found := k.entries[partido]; !found && len(k.entries) >= maxKept {
			clear(k.entries) // matches long past are rarely asked for again
		}
		k.entries[partido] = keptDistribution{cierre: cierre, settled: settled, at: k.now(), d: d}
		return d, nil
	})
	if err != nil {
		return Distribucion{}, err
	}
	return v.(Distribucion), nil
}
