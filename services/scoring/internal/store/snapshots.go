package store

import (
	"context"
	"strconv"
	"sync"

	"golang.org/x/sync/singleflight"

	"prode/scoring/internal/ranked"
)

// KeptSnapshots is how many decoded snapshots a replica keeps by default: the newest two of the
// current tournament (a reader may still page through the previous one, and the next one is
// carried from the newest). At 2 million players a snapshot takes about 88 MB in memory, and
// scoring's memory limit is 512 MiB (docs/operations.md, "Scoring's memory"); another
// tournament's table, rarely read, is loaded again when asked for.
const KeptSnapshots = 2

// Snapshots reads standings snapshots (scoring.tablas_compactas) by version and keeps the last
// few read, decoded: every page, place, board and league table of a version is read from it in
// memory, and a replica loads each new version once, whichever reader asks first.
type Snapshots struct {
	keep  int
	loads singleflight.Group

	mu   sync.Mutex
	kept []keptSnapshot // most recently used last
}

type keptSnapshot struct {
	id    int64
	table *ranked.Table
}

// NewSnapshots keeps up to keep decoded snapshots.
func NewSnapshots(keep int) *Snapshots { return &Snapshots{keep: max(1, keep)} }

// empty is the table of version 0: a tournament without a snapshot yet.
var empty = ranked.Rank(nil, false)

// get returns snapshot id, loading it with load when it is not kept.
func (s *Snapshots) get(ctx context.Context, id int64, load func(context.Context) ([]byte, error)) (*ranked.Table, error) {
	if id == 0 {
		return empty, nil
	}
	if t, ok := s.lookup(id); ok {
		return t, nil
	}
	v, err, _ := s.loads.Do(strconv.FormatInt(id, 10), func() (any, error) {
		if t, ok := s.lookup(id); ok {
			return t, nil
		}
		raw, err := load(context.WithoutCancel(ctx))
		if err != nil {
			return nil, err
		}
		t, err := ranked.Decode(raw)
		if err != nil {
			return nil, err
		}
		s.Keep(id, t)
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*ranked.Table), nil
}

func (s *Snapshots) lookup(id int64) (*ranked.Table, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, k := range s.kept {
		if k.id == id {
			// The most recently used moves last, in place: this runs on every read.
			copy(s.kept[i:], s.kept[i+1:])
			s.kept[len(s.kept)-1] = k
			return k.table, true
		}
	}
	return nil, false
}

// Keep remembers a decoded snapshot (the builder keeps the one it just ranked), forgetting the
// least recently used beyond the limit.
func (s *Snapshots) Keep(id int64, t *ranked.Table) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, k := range s.kept {
		if k.id == id {
			s.kept = append(s.kept[:i], s.kept[i+1:]...)
			break
		}
	}
	s.kept = append(s.kept, keptSnapshot{id: id, table: t})
	if len(s.kept) > s.keep {
		s.kept = append(s.kept[:0:0], s.kept[len(s.kept)-s.keep:]...)
	}
}
