package migrations

import (
	"strings"
	"testing"
)

// scoring 000008 records the score each match's points rows count: a match scored before it
// is recorded as not known (its next change is ranked from the totals), a match without points
// is not recorded at all; snapshots gain what they count; only the scoring role reads and
// writes the new table; the down migration leaves the schema exactly as it was.
func TestPartidosContadosMigrateAndRollBack(t *testing.T) {
	db := releaseBefore(t, "scoring/000008")
	exec(t, db, `
		INSERT INTO fixtures.equipos VALUES ('ARG', 'Argentina', 'ar'), ('FRA', 'Francia', 'fr');
		INSERT INTO fixtures.torneos (nombre, actual) VALUES ('Copa', true);
		INSERT INTO fixtures.partidos (torneo, torneo_id, numero, categoria, local, visitante, inicio)
		SELECT 'Copa', id, n, 'Grupo A', 'ARG', 'FRA', '2030-06-11 19:00Z' FROM fixtures.torneos, generate_series(1, 2) n;
		INSERT INTO scoring.puntos (partido_id, torneo_id, jugador_id, puntos, exacto, acierto)
		SELECT id, torneo_id, 7, 3, false, true FROM fixtures.partidos WHERE numero = 1;
		INSERT INTO scoring.tablas_compactas (torneo_id, jugadores_hasta, filas, posicion_ceros, datos)
		SELECT id, 7, 1, 2, '\x02' FROM fixtures.torneos;`)
	objectsBefore := objects(t, db)

	up(t, db, nil)
	recorded := query[string](t, db, `
		SELECT string_agg(format('%s %s %s', p.numero, c.conocido::text, coalesce(c.goles_local::text, 'null')), ', ')
		  FROM scoring.partidos_contados c JOIN fixtures.partidos p ON p.id = c.partido_id`)
	if recorded != "1 false null" {
		t.Errorf("partidos_contados after the migration: %q, want only match 1, not known", recorded)
	}
	if n := query[int64](t, db, `SELECT count(*) FROM scoring.tablas_compactas WHERE contados IS NULL AND fecha_del_dia IS NULL`); n != 1 {
		t.Errorf("the previous release's snapshot: %d without what it counts, want 1 (it is never carried)", n)
	}
	acl := query[string](t, db, `SELECT relacl::text FROM pg_class WHERE oid = 'scoring.partidos_contados'::regclass`)
	if !strings.Contains(acl, "prode_scoring=arw/") || strings.Count(acl, "prode_") != 1 {
		t.Errorf("grants on scoring.partidos_contados %s, want SELECT, INSERT and UPDATE for prode_scoring only", acl)
	}
	if err := execErr(t, db, `INSERT INTO scoring.partidos_contados (partido_id, torneo_id, goles_local, conocido) VALUES (99, 1, 2, true)`); err == nil {
		t.Error("a score with one side only was stored")
	}

	down(t, db, "scoring/000009_huellas.down.sql", "scoring/000008_partidos_contados.down.sql")
	if after := objects(t, db); after != objectsBefore {
		t.Errorf("the down migration left the schema different:\nbefore:\n%s\nafter:\n%s", objectsBefore, after)
	}
}
