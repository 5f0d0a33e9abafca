package store

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
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

// The advisory locks of a tournament's standings, keyed (kind, tournament): the turn, which
// ranks a table (a build from the totals, a carry ahead of the points rows), and the rows, held
// shared by every scorer writing points rows that a carried table already counts.
const (
	turnLock = `hashtext('scoring.tabla'), ($1 % 2147483647)::integer`
	rowsLock = `hashtext('scoring.filas'), ($1 % 2147483647)::integer`
)

// turn is a tournament's standings turn, held on a pooled connection of its own: the build or
// carry that holds it runs its transaction on that connection, so that a turn costs one
// connection (scoring's pods have four), and the transaction starts after the lock, seeing all
// that the previous holder committed (a lock taken inside a repeatable read transaction would
// see what was there before the wait).
type turn struct {
	conn   *pgxpool.Conn
	torneo int64
	line   chan struct{}
}

// takeTurn waits for a tournament's standings turn and holds it until it is released or handed
// over: a build ranking the table from the totals (Build) and a scorer carrying the table
// ahead of a result's points rows (CarryAhead) take turns. The key is the one the previous
// releases lock, so that releases take turns during an upgrade.
func (s *StandingsStore) takeTurn(ctx context.Context, torneo int64) (*turn, error) {
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
	t := &turn{conn: conn, torneo: torneo, line: line}
	if err := t.exec(ctx, `pg_advisory_lock(`+turnLock+`)`); err != nil {
		return nil, err
	}
	return t, nil
}

// exec runs SELECT fn on the turn's connection. A failure closes the session, which releases
// its locks whatever state the statement left, and lets go of the turn.
func (t *turn) exec(ctx context.Context, fn string) error {
	if _, err := t.conn.Exec(ctx, `SELECT `+fn, t.torneo); err != nil {
		_ = t.conn.Conn().Close(context.WithoutCancel(ctx))
		t.conn.Release()
		<-t.line
		return err
	}
	return nil
}

// release lets go of the turn.
func (t *turn) release() {
	if t.exec(context.Background(), `pg_advisory_unlock(`+turnLock+`)`) == nil {
		t.conn.Release()
		<-t.line
	}
}

// waitForRows waits until no scorer is writing points rows that a carried table counts
// (holdRows). The turn is held, so no new writer starts meanwhile.
func (t *turn) waitForRows(ctx context.Context) error {
	if err := t.exec(ctx, `pg_advisory_lock(`+rowsLock+`)`); err != nil {
		return err
	}
	return t.exec(ctx, `pg_advisory_unlock(`+rowsLock+`)`)
}

// holdRows marks that the holder will write points rows that the table it carries counts:
// every build from the totals waits for them (waitForRows). Holders do not exclude each
// other.
func (t *turn) holdRows(ctx context.Context) error {
	return t.exec(ctx, `pg_advisory_lock_shared(`+rowsLock+`)`)
}

// handOver lets go of the turn but keeps the connection, and its hold on the rows, until done
// is called once the rows are written.
func (t *turn) handOver() (done func(), err error) {
	ctx := context.Background()
	if err := t.exec(ctx, `pg_advisory_unlock(`+turnLock+`)`); err != nil {
		return nil, err
	}
	<-t.line
	return func() {
		if _, err := t.conn.Exec(ctx, `SELECT pg_advisory_unlock_shared(`+rowsLock+`)`, t.torneo); err != nil {
			_ = t.conn.Conn().Close(ctx)
		}
		t.conn.Release()
	}, nil
}
