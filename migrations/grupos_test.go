package migrations

import (
	"strings"
	"testing"
)

// scoring 000004 adds the leagues to a deployment already in use: the standings stay, the
// leagues start empty, only the scoring role may use them, a name must have 1 to 60 characters,
// an invite code belongs to one league, a player is in a league once, deleting a league deletes
// its members, and the down migration leaves the schema exactly as it was.
func TestGruposMigrateAndRollBack(t *testing.T) {
	db := releaseBefore(t, "scoring/000004")
	exec(t, db, `INSERT INTO scoring.tablas (torneo_id, jugadores_hasta, filas, posicion_ceros) VALUES (1, 0, 0, 1)`)
	objectsBefore := objects(t, db)

	up(t, db, withoutFrom(t, "scoring/000005"))
	if n := query[int64](t, db, `SELECT count(*) FROM scoring.tablas`); n != 1 {
		t.Errorf("%d standings snapshots after the migration, want 1", n)
	}
	for _, table := range []string{"scoring.grupos", "scoring.grupo_miembros"} {
		acl := query[string](t, db, `SELECT relacl::text FROM pg_class WHERE oid = $1::regclass`, table)
		if !strings.Contains(acl, "prode_scoring=arwd/") || strings.Count(acl, "prode_") != 1 {
			t.Errorf("grants on %s %s, want SELECT, INSERT, UPDATE and DELETE for prode_scoring only", table, acl)
		}
	}
	exec(t, db, `INSERT INTO scoring.grupos (torneo_id, nombre, dueno_id, codigo) VALUES (1, 'Oficina', 7, 'abc');
	              INSERT INTO scoring.grupo_miembros (grupo_id, jugador_id) SELECT id, 7 FROM scoring.grupos`)
	for _, refused := range []string{
		`INSERT INTO scoring.grupos (torneo_id, nombre, dueno_id) VALUES (1, '', 7)`,
		`INSERT INTO scoring.grupos (torneo_id, nombre, dueno_id) VALUES (1, repeat('x', 61), 7)`,
		`INSERT INTO scoring.grupos (torneo_id, nombre, dueno_id, codigo) VALUES (1, 'Otro', 8, 'abc')`,
		`INSERT INTO scoring.grupo_miembros (grupo_id, jugador_id) SELECT id, 7 FROM scoring.grupos`,
	} {
		if err := execErr(t, db, refused); err == nil {
			t.Errorf("%s was accepted", refused)
		}
	}
	exec(t, db, `INSERT INTO scoring.grupos (torneo_id, nombre, dueno_id) VALUES (1, 'Sin código', 8), (1, 'Otro sin código', 9)`)
	exec(t, db, `DELETE FROM scoring.grupos WHERE nombre = 'Oficina'`)
	if n := query[int64](t, db, `SELECT count(*) FROM scoring.grupo_miembros`); n != 0 {
		t.Errorf("%d members left after their league was deleted", n)
	}

	down(t, db, "scoring/000004_grupos.down.sql")
	if after := objects(t, db); after != objectsBefore {
		t.Errorf("the down migration left the schema different:\nbefore:\n%s\nafter:\n%s", objectsBefore, after)
	}
}
