package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// rescore is one transaction of a scorer, the matches' (ScoreMatches) or the bonus questions'
// (ScoreQuestions): both replace the points of some keys by points computed anew, record the
// outbox events they apply, and name the tournaments whose standings changed.
type rescore struct {
	lock    string      // the advisory locks' kind: one scorer per key at a time
	keys    []int64     // the matches or the questions
	eventos []int64     // the outbox events applied
	torneos string      // selects the tournaments of keys ($1)
	scratch string      // the temporary table of the new points: its name and (columns)
	steps   []statement // in order, after the locks and the scratch table
}

// statement is one step of a rescore.
type statement struct {
	sql  string
	args []any
}

// rescore runs r in one transaction. It locks every key first (several replicas, or a rescore
// racing the consumer): every step runs after the locks are held, so it sees the data and the
// old points as the previous scorer of each key committed them. The events are recorded in the
// same transaction, so that a replay finds them done.
func (s *PointsStore) rescore(ctx context.Context, r rescore) (torneos []int64, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockKeys(ctx, tx, r.lock, r.keys...); err != nil {
			return err
		}
		// Another replica applied these events while this one waited for the locks (both heard
		// them): its rows were computed from the keys' data as it was then or later.
		if done, err := applied(ctx, tx, r.eventos); err != nil || done {
			return err
		}
		// Emptied at every commit, so it is empty at the start of each transaction. No index: it
		// is written once and read whole.
		if _, err := tx.Exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS `+r.scratch+` ON COMMIT DELETE ROWS`); err != nil {
			return err
		}
		for _, st := range r.steps {
			if _, err := tx.Exec(ctx, st.sql, st.args...); err != nil {
				return err
			}
		}
		if err := markProcessed(ctx, tx, r.eventos); err != nil {
			return err
		}
		torneos, err = ids(ctx, tx, r.torneos, r.keys)
		return err
	})
	return torneos, err
}

// querier is what reads run through: the pool, or a transaction that must see them in its own
// snapshot.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// ids runs query, which selects one bigint column: matches, questions, tournaments. (pgx hands
// a failed query's error to CollectRows.)
func ids(ctx context.Context, q querier, query string, args ...any) ([]int64, error) {
	rows, _ := q.Query(ctx, query, args...)
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// applied reports whether every one of eventos, when there are some, is recorded as applied.
func applied(ctx context.Context, tx pgx.Tx, eventos []int64) (bool, error) {
	if len(eventos) == 0 {
		return false, nil
	}
	var all bool
	err := tx.QueryRow(ctx, `
		SELECT NOT EXISTS (SELECT FROM unnest($1::bigint[]) e(id)
		                    WHERE NOT EXISTS (SELECT FROM scoring.eventos_procesados p WHERE p.evento_id = e.id))`,
		eventos).Scan(&all)
	return all, err
}

// markProcessed records outbox events as applied, in the transaction that applied them, so that
// a replay finds them done. Replays of events already recorded change nothing.
func markProcessed(ctx context.Context, tx pgx.Tx, eventos []int64) error {
	if len(eventos) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO scoring.eventos_procesados (evento_id)
		SELECT unnest($1::bigint[]) ON CONFLICT (evento_id) DO NOTHING`, eventos)
	return err
}
