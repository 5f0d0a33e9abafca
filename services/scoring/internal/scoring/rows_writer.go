package scoring

import (
	"context"
	"slices"
	"sync"
)

// rowsWriter writes the points rows of results whose table was already carried and published
// (Publisher.CarryAhead), on a goroutine of its own, while the pass goes on to carry the next
// results: at two million players a match's rows take tens of seconds, its carry about two.
// The rows are written one transaction at a time, in the order their results were carried:
// each write computes a match's points from its result as it is then, so the last write of a
// match ends at its newest result, and records its newest event applied.
type rowsWriter struct {
	write func(ctx context.Context, partidos []int64, eventos map[int64][]int64) error

	mu      sync.Mutex
	queue   []carried // carried, not being written yet
	writing []carried // in the transaction being written
	// holds keep every build from the totals of a tournament waiting (one per tournament, the
	// first carry's; later carries let theirs go at once): let go when nothing is left to write.
	holds   map[int64]func()
	err     error         // a failed write's: the writer stops, and the pass reports it
	wake    chan struct{} // something was queued (capacity 1)
	written chan struct{} // a write ended (capacity 1)
}

// carried is a scoring transaction's worth of matches of tournament torneo, carried ahead of
// their rows, with their outbox events, and the hold on the tournament's builds the carry took.
type carried struct {
	torneo   int64
	partidos []int64
	eventos  map[int64][]int64 // by match
	hold     func()
}

func newRowsWriter(write func(ctx context.Context, partidos []int64, eventos map[int64][]int64) error) *rowsWriter {
	return &rowsWriter{write: write, holds: map[int64]func(){}, wake: make(chan struct{}, 1), written: make(chan struct{}, 1)}
}

// run writes what is queued until ctx ends; a failed write stops it.
func (w *rowsWriter) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			w.stop(ctx.Err())
			return
		case <-w.wake:
		}
		for batch := w.next(); len(batch) > 0; batch = w.next() {
			partidos, eventos := mergeCarried(batch)
			if err := w.write(ctx, partidos, eventos); err != nil {
				w.stop(err)
				return
			}
			w.mu.Lock()
			w.writing = nil
			var holds map[int64]func()
			if len(w.queue) == 0 {
				holds, w.holds = w.holds, map[int64]func(){}
			}
			w.mu.Unlock()
			for _, hold := range holds {
				hold()
			}
			signal(w.written)
		}
	}
}

// next takes everything queued (one write: a match carried twice is written once, at its
// newest result).
func (w *rowsWriter) next() []carried {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writing, w.queue = w.queue, nil
	return w.writing
}

// stop records err and lets go of everything: the events not written stay pending, for the
// next pass, which mends the tables that count them.
func (w *rowsWriter) stop(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.queue, w.writing = nil, nil
	holds := w.holds
	w.holds = map[int64]func(){}
	w.mu.Unlock()
	for _, hold := range holds {
		hold()
	}
	signal(w.written)
}

// add queues a carried transaction's rows; false when the writer has stopped (c's hold is let
// go).
func (w *rowsWriter) add(c carried) bool {
	w.mu.Lock()
	stopped := w.err != nil
	_, held := w.holds[c.torneo]
	if !stopped {
		if !held {
			w.holds[c.torneo] = c.hold
		}
		w.queue = append(w.queue, c)
		signal(w.wake)
	}
	w.mu.Unlock()
	if stopped || held {
		c.hold() // the first one keeps the builds waiting until this one is written too
	}
	return !stopped
}

// inFlight are the matches and events queued or being written.
func (w *rowsWriter) inFlight() (partidos, eventos []int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range slices.Concat(w.writing, w.queue) {
		partidos = append(partidos, c.partidos...)
		for _, ids := range c.eventos {
			eventos = append(eventos, ids...)
		}
	}
	slices.Sort(partidos)
	return slices.Compact(partidos), eventos
}

// idle reports whether nothing is queued or being written, and the failed write's error.
func (w *rowsWriter) idle() (bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.queue) == 0 && len(w.writing) == 0, w.err
}

// mergeCarried is one write's matches, each once in the order first carried, and their events.
func mergeCarried(batch []carried) (partidos []int64, eventos map[int64][]int64) {
	eventos = map[int64][]int64{}
	for _, c := range batch {
		for _, p := range c.partidos {
			if _, seen := eventos[p]; !seen {
				partidos = append(partidos, p)
			}
			eventos[p] = append(eventos[p], c.eventos[p]...)
		}
	}
	return partidos, eventos
}

// signal wakes the receiver of a channel of capacity 1 without waiting.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
