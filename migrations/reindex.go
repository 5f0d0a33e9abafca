package migrations

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The predictions' match index (predictions.apuestas_por_partido) is what scoring reads a
// match's predictions from when its result is entered, corrected or deleted. Saves arrive in
// random order, so its pages split and one match's entries end up scattered over the file: at 2
// million players, read from disk a page at a time, 12 s for one match against 0.66 s once the
// index is rebuilt and its entries lie packed in file order (docs/operations.md). A closed match
// takes no more saves, so once rebuilt after its cut-off its entries stay packed until its
// result. Only the table's owner, the migrating role, may rebuild an index (PostgreSQL 15 has no
// MAINTAIN privilege), which is why this lives with the migrations and not in a service.

// predictionsIndex is the index RebuildPredictionsIndex rebuilds.
const predictionsIndex = "predictions.apuestas_por_partido"

// Rebuild is what RebuildPredictionsIndex did.
type Rebuild struct {
	Rebuilt      bool
	Reason       string        // why it rebuilt, or why not
	Took         time.Duration // the REINDEX alone
	SizeBefore   int64         // the index's bytes before and after (equal when not rebuilt)
	SizeAfter    int64
	DroppedStale []string // invalid indexes an interrupted rebuild had left, dropped first
}

// RebuildPredictionsIndex rebuilds the predictions' match index, without blocking saves or
// reads (REINDEX CONCURRENTLY), when a match's betting has closed since the last rebuild, or
// always when force. One runs at a time: a second one, while the first still runs, does nothing.
func (mg Migrator) RebuildPredictionsIndex(ctx context.Context, adminURL string, force bool) (Rebuild, error) {
	var r Rebuild
	conn, err := connect(ctx, adminURL, mg.log())
	if err != nil {
		return r, err
	}
	defer conn.Close(ctx)

	// A session lock, held until the connection closes: REINDEX CONCURRENTLY cannot run in a
	// transaction, so no transaction lock could cover it.
	var mine bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtext($1))`, predictionsIndex).Scan(&mine); err != nil {
		return r, err
	}
	if !mine {
		r.Reason = "another rebuild is running"
		return r, nil
	}

	// A rebuild interrupted (a killed pod, a lost connection) leaves its new index behind,
	// invalid: never read, but still written by every save. Only a rebuild makes them, and none
	// other runs now.
	rows, _ := conn.Query(ctx, `
		SELECT c.relname
		  FROM pg_index i
		  JOIN pg_class c ON c.oid = i.indexrelid
		 WHERE i.indrelid = 'predictions.apuestas'::regclass
		   AND NOT i.indisvalid
		   AND c.relname LIKE 'apuestas_por_partido_ccnew%'`)
	stale, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return r, fmt.Errorf("looking for an interrupted rebuild's index: %w", err)
	}
	for _, name := range stale {
		if _, err := conn.Exec(ctx, `DROP INDEX CONCURRENTLY `+pgx.Identifier{"predictions", name}.Sanitize()); err != nil {
			return r, fmt.Errorf("dropping %s, left by an interrupted rebuild: %w", name, err)
		}
		r.DroppedStale = append(r.DroppedStale, name)
	}

	// Due when a match has closed, by the database clock (the one every save's cut-off uses),
	// that had not when the last rebuild began. The closed matches are read before the rebuild:
	// one closing while it runs makes the next run due.
	var closed []int64
	var newly int
	err = conn.QueryRow(ctx, `
		WITH cerrados AS (
		    SELECT coalesce(array_agg(id ORDER BY id), '{}') AS ids
		      FROM fixtures.partidos_publicados WHERE cierre <= now())
		SELECT c.ids,
		       (SELECT count(*) FROM unnest(c.ids) id WHERE id <> ALL (r.cerrados)),
		       pg_relation_size($1::regclass)
		  FROM cerrados c, predictions.indice_reconstruido r`, predictionsIndex).Scan(&closed, &newly, &r.SizeBefore)
	if err != nil {
		return r, fmt.Errorf("reading the last rebuild: %w", err)
	}
	r.SizeAfter = r.SizeBefore
	switch {
	case newly > 0:
		r.Reason = fmt.Sprintf("matches closed since the last rebuild: %d", newly)
	case force:
		r.Reason = "forced"
	default:
		r.Reason = "no match closed since the last rebuild"
		return r, nil
	}

	start := time.Now()
	if _, err := conn.Exec(ctx, `REINDEX INDEX CONCURRENTLY `+predictionsIndex); err != nil {
		return r, fmt.Errorf("REINDEX INDEX CONCURRENTLY %s: %w", predictionsIndex, err)
	}
	r.Took, r.Rebuilt = time.Since(start), true
	err = conn.QueryRow(ctx, `
		UPDATE predictions.indice_reconstruido SET cerrados = $1
		RETURNING pg_relation_size($2::regclass)`, closed, predictionsIndex).Scan(&r.SizeAfter)
	if err != nil {
		return r, fmt.Errorf("recording the rebuild: %w", err)
	}
	return r, nil
}
