package store

import (
	"context"
	"sync"
)

// turns are this process's places in line for each tournament's turn: one caller at a time per
// tournament waits in PostgreSQL, on one pooled connection, so that callers waiting for a turn
// cannot take every connection the holder needs to finish.
type turns struct {
	mu       sync.Mutex
	byTorneo map[int64]chan struct{}
}

func (t *turns) of(torneo int64) chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byTorneo == nil {
		t.byTorneo = map[int64]chan struct{}{}
	}
	if _, ok := t.byTorneo[torneo]; !ok {
		t.byTorneo[torneo] = make(chan struct{}, 1)
	}
	return t.byTorneo[torneo]
}

// Turn waits for a tournament's standings turn and holds it until release is called: a build
// ranking the table from the totals (Build), and a scorer ranking a result ahead of writing its
// points rows (Carry, then the points), take turns. The lock is a session's, on a connection of
// its own, so that a build's transaction starts after the previous holder committed and sees
// all of it (a lock taken inside a repeatable read transaction would see what was there before
// the wait). The key is the one the previous release's builds lock inside their transactions,
// so that both releases take turns during an upgrade.
func (s *StandingsStore) Turn(ctx context.Context, torneo int64) (release func(), err error) {
	line := s.turns.of(torneo)
	select {
	case line <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		<-line
		return nil, err
	}
	forget := func() {
		// Closing the session releases its locks, whatever state the lock statement left.
		_ = conn.Conn().Close(context.WithoutCancel(ctx))
		conn.Release()
		<-line
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtext('scoring.tabla'), ($1 % 2147483647)::integer)`, torneo); err != nil {
		forget()
		return nil, err
	}
	return func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtext('scoring.tabla'), ($1 % 2147483647)::integer)`, torneo); err != nil {
			forget()
			return
		}
		conn.Release()
		<-line
	}, nil
}
