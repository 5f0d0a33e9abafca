package tablero

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"

	"prode/scoring/internal/store"
)

// keptMatchdays is how many matchday tables a replica keeps for the boards: the day people are
// looking at and one more (a matchday's table is 8 bytes a row: 32 MB for two days on which
// 2 million players scored).
const keptMatchdays = 2

// matchdayReadTimeout bounds one read of a matchday's table, which the boards asking for it at
// the same moment share (a few seconds for 2 million rows).
const matchdayReadTimeout = 30 * time.Second

// matchdays keeps the matchday tables the boards read, each as one snapshot has it: read once
// per snapshot and replica, shared by every board of that day until the next result, so that a
// board costs a few lookups rather than ranking the whole day in PostgreSQL.
type matchdays struct {
	store   *store.StandingsStore
	zone    string
	results *prometheus.CounterVec // by result: kept, read, earlier, rows_behind

	mu   sync.Mutex
	kept []keptMatchday // the most recently used last
	// reads shares a read of one table among the boards that want it at the same moment.
	reads singleflight.Group
}

type matchdayKey struct {
	torneo, tabla int64
	fecha         string // AAAA-MM-DD
}

type keptMatchday struct {
	key   matchdayKey
	table *store.MatchdayTable
}

// at is matchday dia of tournament torneo as snapshot tabla has it. While the points rows do
// not count that snapshot yet (a carried result's rows still being written), the day's totals
// are an earlier snapshot's: at is then the table kept at that snapshot if the rows still count
// it, else nil (the caller reads the day from PostgreSQL as it stands).
func (m *matchdays) at(ctx context.Context, torneo, tabla int64, dia time.Time) (*store.MatchdayTable, error) {
	key := matchdayKey{torneo: torneo, tabla: tabla, fecha: dia.Format(time.DateOnly)}
	if t := m.lookup(key); t != nil {
		m.results.WithLabelValues("kept").Inc()
		return t, nil
	}
	name := strconv.FormatInt(torneo, 10) + "/" + strconv.FormatInt(tabla, 10) + "/" + key.fecha
	// The read runs on ctx's values but not its cancellation: others may be waiting for it.
	shared := context.WithoutCancel(ctx)
	answer := m.reads.DoChan(name, func() (any, error) {
		ctx, cancel := context.WithTimeout(shared, matchdayReadTimeout)
		defer cancel()
		return m.read(ctx, key, dia)
	})
	select {
	case r := <-answer:
		if r.Err != nil {
			return nil, r.Err
		}
		found := r.Val.(foundMatchday)
		m.results.WithLabelValues(found.result).Inc()
		return found.table, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// foundMatchday is a read's table (nil: none) and the metric's result.
type foundMatchday struct {
	table  *store.MatchdayTable
	result string
}

// read reads key's table from PostgreSQL and keeps it; while the rows do not count key's
// snapshot, it looks for the day kept at an earlier snapshot that they still count.
func (m *matchdays) read(ctx context.Context, key matchdayKey, dia time.Time) (foundMatchday, error) {
	t, ok, err := m.store.MatchdayTableAt(ctx, key.torneo, key.tabla, m.zone, dia)
	if err != nil {
		return foundMatchday{}, err
	}
	if ok {
		// A day with no table (any date can be asked for) is not kept: it would push out the
		// days people are looking at, and is read again at the cost of an empty range.
		if t.Len() > 0 {
			m.keep(key, t)
		}
		return foundMatchday{table: t, result: "read"}, nil
	}
	if earlier, ok := m.earlierOf(key); ok {
		agree, err := m.store.RowsAgree(ctx, key.torneo, earlier.key.tabla, m.zone)
		if err != nil {
			return foundMatchday{}, err
		}
		if agree {
			return foundMatchday{table: earlier.table, result: "earlier"}, nil
		}
	}
	return foundMatchday{result: "rows_behind"}, nil
}

// earlierOf is the newest table kept of key's day at an earlier snapshot.
func (m *matchdays) earlierOf(key matchdayKey) (keptMatchday, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var newest keptMatchday
	for _, k := range m.kept {
		if k.key.torneo == key.torneo && k.key.fecha == key.fecha && k.key.tabla < key.tabla && k.key.tabla > newest.key.tabla {
			newest = k
		}
	}
	return newest, newest.table != nil
}

// lookup returns the kept table of key, now the most recently used, or nil.
func (m *matchdays) lookup(key matchdayKey) *store.MatchdayTable {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.kept, func(k keptMatchday) bool { return k.key == key })
	if i < 0 {
		return nil
	}
	k := m.kept[i]
	m.kept = append(slices.Delete(m.kept, i, i+1), k)
	return k.table
}

// keep keeps t as key's table, forgetting the least recently used beyond keptMatchdays and
// any of the same day at an older snapshot (no board asks for it again); a read that ends
// after a newer snapshot's of the same day is not kept.
func (m *matchdays) keep(key matchdayKey, t *store.MatchdayTable) {
	m.mu.Lock()
	defer m.mu.Unlock()
	sameDay := func(k keptMatchday) bool { return k.key.torneo == key.torneo && k.key.fecha == key.fecha }
	if slices.ContainsFunc(m.kept, func(k keptMatchday) bool { return sameDay(k) && k.key.tabla > key.tabla }) {
		return
	}
	m.kept = slices.DeleteFunc(m.kept, sameDay)
	m.kept = append(m.kept, keptMatchday{key: key, table: t})
	if len(m.kept) > keptMatchdays {
		m.kept = slices.Delete(m.kept, 0, len(m.kept)-keptMatchdays)
	}
}
