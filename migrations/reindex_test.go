package migrations

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// migrate reindex rebuilds the predictions' match index once a match's betting has closed since
// the last rebuild, and only then (or when forced): the rebuilt index is smaller than the one
// random saves left, keeps every prediction, and still serves scoring's read of a match alone.
// It first drops what an interrupted rebuild left, and steps aside while another one runs.
func TestRebuildPredictionsIndexOnceAMatchCloses(t *testing.T) {
	db := testDatabase(t)
	up(t, db, nil)
	// Match 1 closes in two hours; match 2's cut-off passed half an hour ago. 20,000 saves in
	// random order, as players make them.
	exec(t, db, `
		INSERT INTO fixtures.equipos VALUES ('ARG', 'Argentina', 'ar'), ('FRA', 'Francia', 'fr');
		INSERT INTO fixtures.torneos (nombre, actual) VALUES ('Copa', true);
		INSERT INTO fixtures.partidos (torneo, torneo_id, numero, categoria, local, visitante, inicio)
		SELECT 'Copa', id, n, 'Grupo A', 'ARG', 'FRA', now() + interval '3 hours' - (n - 1) * interval '150 minutes'
		  FROM fixtures.torneos, generate_series(1, 2) n;
		INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
		SELECT j, j || '@example.com', p.id, j % 5, j % 3
		  FROM generate_series(1, 10000) j, fixtures.partidos p
		 ORDER BY random();`)
	index := func() uint32 {
		return query[uint32](t, db, `SELECT 'predictions.apuestas_por_partido'::regclass::oid`)
	}
	rebuild := func(force bool) Rebuild {
		t.Helper()
		mg, _ := migrator(t, nil)
		r, err := mg.RebuildPredictionsIndex(context.Background(), db, force)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	// The first run after the migration: match 2 has closed.
	before := index()
	r := rebuild(false)
	if !r.Rebuilt || r.Reason != "matches closed since the last rebuild: 1" || index() == before {
		t.Fatalf("first run: %+v, index %d then %d; want match 2's close to rebuild it", r, before, index())
	}
	if r.SizeAfter >= r.SizeBefore {
		t.Errorf("the rebuilt index has %d bytes, the one random saves left %d: want it packed", r.SizeAfter, r.SizeBefore)
	}
	if n := query[int64](t, db, `SELECT count(*) FROM predictions.apuestas_publicadas WHERE partido_id = 2`); n != 10000 {
		t.Errorf("%d predictions of match 2 after the rebuild, want 10000", n)
	}
	if plan := matchReadPlan(t, db); !strings.Contains(plan, "Index Only Scan using apuestas_por_partido") {
		t.Errorf("scoring's read of a match's predictions after the rebuild:\n%s", plan)
	}

	// Nothing closed since: nothing to do.
	before = index()
	if r := rebuild(false); r.Rebuilt || r.Reason != "no match closed since the last rebuild" || index() != before {
		t.Errorf("second run: %+v; want no rebuild", r)
	}

	// Match 1's cut-off passes (a rescheduled kick-off): due again.
	exec(t, db, `UPDATE fixtures.partidos SET inicio = now() + interval '59 minutes' WHERE numero = 1`)
	if r := rebuild(false); !r.Rebuilt || r.Reason != "matches closed since the last rebuild: 1" || index() == before {
		t.Errorf("after match 1 closed: %+v; want a rebuild", r)
	}
	before = index()
	if r := rebuild(true); !r.Rebuilt || r.Reason != "forced" || index() == before {
		t.Errorf("forced: %+v; want a rebuild", r)
	}

	// An interrupted rebuild leaves an invalid index behind, which every save still writes:
	// a failed CREATE INDEX CONCURRENTLY leaves one the same way.
	if err := execErr(t, db, `CREATE UNIQUE INDEX CONCURRENTLY apuestas_por_partido_ccnew ON predictions.apuestas (partido_id)`); err == nil {
		t.Fatal("a unique index on partido_id was built; the test needs it to fail")
	}
	r = rebuild(false)
	if !slices.Equal(r.DroppedStale, []string{"apuestas_por_partido_ccnew"}) || r.Rebuilt {
		t.Errorf("with an interrupted rebuild's index: %+v; want it dropped and no rebuild", r)
	}
	if n := query[int64](t, db, `SELECT count(*) FROM pg_class WHERE relname LIKE 'apuestas_por_partido_ccnew%'`); n != 0 {
		t.Errorf("%d indexes of an interrupted rebuild left", n)
	}

	// Another rebuild running (its session lock held here): this one does nothing, even forced.
	other := dial(t, db)
	defer other.Close(context.Background())
	if _, err := other.Exec(context.Background(), `SELECT pg_advisory_lock(hashtext('predictions.apuestas_por_partido'))`); err != nil {
		t.Fatal(err)
	}
	before = index()
	if r := rebuild(true); r.Rebuilt || r.Reason != "another rebuild is running" || index() != before {
		t.Errorf("beside another rebuild: %+v; want none", r)
	}
}
