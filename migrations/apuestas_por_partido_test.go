package migrations

import (
	"context"
	"strings"
	"testing"
)

// predictions 000003 replaces the index on a prediction's match by one in match order that
// holds the goals too, so that a match's predictions are read from the index alone: the
// predictions stay, scoring's read of one match through its view can be answered by an
// index-only scan, vacuum comes ten times sooner, and the down migration leaves the schema
// exactly as it was.
func TestApuestasPorPartidoMigrateAndRollBack(t *testing.T) {
	db := releaseBefore(t, "predictions/000003")
	exec(t, db, `INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
	             VALUES (7, 'ana@example.com', 1, 2, 0), (8, 'beto@example.com', 1, 0, 3), (7, 'ana@example.com', 2, 1, 1)`)
	objectsBefore := objects(t, db)

	up(t, db, nil)
	if n := query[int64](t, db, `SELECT count(*) FROM predictions.apuestas_publicadas WHERE partido_id = 1`); n != 2 {
		t.Errorf("%d predictions of match 1 after the migration, want 2", n)
	}
	if plan := matchReadPlan(t, db); !strings.Contains(plan, "Index Only Scan using apuestas_por_partido") {
		t.Errorf("scoring's read of a match's predictions cannot be an index-only scan:\n%s", plan)
	}
	options := query[string](t, db, `SELECT array_to_string(reloptions, ' ') FROM pg_class WHERE oid = 'predictions.apuestas'::regclass`)
	if options != "autovacuum_vacuum_scale_factor=0.02 autovacuum_vacuum_insert_scale_factor=0.02" {
		t.Errorf("predictions.apuestas options %q, want vacuum at 2%% of rows changed or added", options)
	}

	down(t, db, "predictions/000004_indice_reconstruido.down.sql", "predictions/000003_apuestas_por_partido.down.sql")
	if after := objects(t, db); after != objectsBefore {
		t.Errorf("the down migration left the schema different:\nbefore:\n%s\nafter:\n%s", objectsBefore, after)
	}
	if options := query[*string](t, db, `SELECT array_to_string(reloptions, ' ') FROM pg_class WHERE oid = 'predictions.apuestas'::regclass`); options != nil {
		t.Errorf("predictions.apuestas options %q after the down migration, want none", *options)
	}
}

// matchReadPlan is the plan of scoring's read of one match's predictions (as carryDelta and
// the points rows read them) when the planner may not read the table itself: a few rows would
// otherwise be read by a sequential scan, whatever the indexes.
func matchReadPlan(t *testing.T, db string) string {
	t.Helper()
	conn := dial(t, db)
	defer conn.Close(context.Background())
	ctx := context.Background()
	if _, err := conn.Exec(ctx, `VACUUM predictions.apuestas`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `SET enable_seqscan = off; SET enable_bitmapscan = off`); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(ctx, `EXPLAIN SELECT jugador_id, goles_local, goles_visitante
	                                FROM predictions.apuestas_publicadas WHERE partido_id = ANY('{1}')`)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}
