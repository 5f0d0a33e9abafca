package migrations

import (
	"strings"
	"testing"
)

// scoring 000006 adds the pins to a deployment already in use: the standings and leagues stay,
// only the scoring role may read, add and remove pins (never update one), a player cannot pin
// themselves nor pin someone twice, and the down migration leaves the schema exactly as it was.
func TestFijadosMigrateAndRollBack(t *testing.T) {
	db := releaseBefore(t, "scoring/000006")
	exec(t, db, `INSERT INTO scoring.tablas (torneo_id, jugadores_hasta, filas, posicion_ceros) VALUES (1, 0, 0, 1);
	             INSERT INTO scoring.grupos (torneo_id, nombre, dueno_id) VALUES (1, 'Oficina', 7)`)
	objectsBefore := objects(t, db)

	up(t, db, nil)
	if n := query[int64](t, db, `SELECT (SELECT count(*) FROM scoring.tablas) + (SELECT count(*) FROM scoring.grupos)`); n != 2 {
		t.Errorf("%d snapshots and leagues after the migration, want 2", n)
	}
	acl := query[string](t, db, `SELECT relacl::text FROM pg_class WHERE oid = 'scoring.fijados'::regclass`)
	if !strings.Contains(acl, "prode_scoring=ard/") || strings.Count(acl, "prode_") != 1 {
		t.Errorf("grants on scoring.fijados %s, want SELECT, INSERT and DELETE for prode_scoring only", acl)
	}
	exec(t, db, `INSERT INTO scoring.fijados (jugador_id, fijado_id) VALUES (7, 8), (7, 9), (8, 7)`)
	for _, refused := range []string{
		`INSERT INTO scoring.fijados (jugador_id, fijado_id) VALUES (7, 7)`,
		`INSERT INTO scoring.fijados (jugador_id, fijado_id) VALUES (7, 8)`,
	} {
		if err := execErr(t, db, refused); err == nil {
			t.Errorf("%s was accepted", refused)
		}
	}

	down(t, db, "scoring/000009_huellas.down.sql", "scoring/000008_partidos_contados.down.sql", "scoring/000007_tablas_compactas.down.sql", "scoring/000006_fijados.down.sql")
	if after := objects(t, db); after != objectsBefore {
		t.Errorf("the down migration left the schema different:\nbefore:\n%s\nafter:\n%s", objectsBefore, after)
	}
}
