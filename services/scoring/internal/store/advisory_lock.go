package store

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"
)

// lockKeys takes a transaction-scoped advisory lock on each key of one kind (scoring.partido,
// scoring.pregunta, scoring.tabla, ...), in ascending key order so that two transactions
// locking overlapping sets cannot deadlock. The locks end with the transaction; every statement
// after them sees what the previous holder committed.
func lockKeys(ctx context.Context, tx pgx.Tx, kind string, keys ...int64) error {
	for _, key := range slices.Compact(slices.Sorted(slices.Values(keys))) {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1), ($2 % 2147483647)::integer)`, kind, key); err != nil {
			return err
		}
	}
	return nil
}
