package migrations

import (
	"strings"
	"testing"
)

// scoring 000007 adds the compact snapshots beside the row-per-player ones, which the previous
// release keeps reading and writing during an upgrade and after a rollback: those stay as they
// are, a new snapshot's version comes after every old one (one sequence for both), only the
// scoring role may read, add and delete compact snapshots, and the down migration leaves the
// schema exactly as it was.
func TestTablasCompactasMigrateAndRollBack(t *testing.T) {
	db := releaseBefore(t, "scoring/000007")
	exec(t, db, `INSERT INTO scoring.tablas (torneo_id, jugadores_hasta, filas, posicion_ceros) VALUES (1, 7, 1, 1);
	             INSERT INTO scoring.tabla_filas (tabla_id, fila, posicion, jugador_id, puntaje, exactos, aciertos)
	             SELECT id, 1, 1, 7, 10, 1, 1 FROM scoring.tablas`)
	objectsBefore := objects(t, db)

	up(t, db, nil)
	if n := query[int64](t, db, `SELECT count(*) FROM scoring.tabla_filas`); n != 1 {
		t.Errorf("%d rows of the old snapshot after the migration, want 1", n)
	}
	old := query[int64](t, db, `SELECT max(id) FROM scoring.tablas`)
	compact := query[int64](t, db, `
		INSERT INTO scoring.tablas_compactas (torneo_id, jugadores_hasta, filas, posicion_ceros, datos)
		VALUES (1, 7, 0, 1, '\x01') RETURNING id`)
	next := query[int64](t, db, `INSERT INTO scoring.tablas (torneo_id, jugadores_hasta, filas, posicion_ceros) VALUES (1, 7, 0, 2) RETURNING id`)
	if old >= compact || compact >= next {
		t.Errorf("versions: old %d, compact %d, old again %d; want one increasing sequence", old, compact, next)
	}
	acl := query[string](t, db, `SELECT relacl::text FROM pg_class WHERE oid = 'scoring.tablas_compactas'::regclass`)
	if !strings.Contains(acl, "prode_scoring=ard/") || strings.Count(acl, "prode_") != 1 {
		t.Errorf("grants on scoring.tablas_compactas %s, want SELECT, INSERT and DELETE for prode_scoring only", acl)
	}
	exec(t, db, `DELETE FROM scoring.tablas WHERE posicion_ceros = 2`)
	exec(t, db, `DELETE FROM scoring.tablas_compactas`)

	down(t, db, "scoring/000009_huellas.down.sql", "scoring/000008_partidos_contados.down.sql", "scoring/000007_tablas_compactas.down.sql")
	if after := objects(t, db); after != objectsBefore {
		t.Errorf("the down migration left the schema different:\nbefore:\n%s\nafter:\n%s", objectsBefore, after)
	}
}
