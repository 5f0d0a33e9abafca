package migrations

import (
	"strings"
	"testing"
)

// fixtures 000003 adds the organisers' audit list to a deployment already in use: the matches
// stay, the list starts empty, the fixtures role may append and read it only (no other role
// sees it), and its down migration leaves the schema exactly as it was.
func TestAuditoriaMigratesAndRollsBack(t *testing.T) {
	db := releaseBefore(t, "fixtures/000003") // the release before the audit list
	exec(t, db, `
		INSERT INTO fixtures.equipos VALUES ('ARG', 'Argentina', 'ar'), ('FRA', 'Francia', 'fr');
		INSERT INTO fixtures.torneos (nombre, actual) VALUES ('World Cup 2022', true);
		INSERT INTO fixtures.partidos (torneo, torneo_id, numero, categoria, local, visitante, inicio)
		SELECT 'World Cup 2022', id, 64, 'Final', 'ARG', 'FRA', '2022-12-18 15:00Z' FROM fixtures.torneos;`)
	objectsBefore := objects(t, db)

	up(t, db, nil)
	wantLatest(t, db)
	if n := query[int64](t, db, `SELECT count(*) FROM fixtures.partidos`); n != 1 {
		t.Errorf("%d matches after the migration, want 1", n)
	}
	if n := query[int64](t, db, `SELECT count(*) FROM fixtures.auditoria`); n != 0 {
		t.Errorf("the audit list starts with %d records", n)
	}
	acl := query[string](t, db, `SELECT relacl::text FROM pg_class WHERE oid = 'fixtures.auditoria'::regclass`)
	if !strings.Contains(acl, "prode_fixtures=ar/") || strings.Count(acl, "prode_") != 1 {
		t.Errorf("grants on fixtures.auditoria %s, want SELECT and INSERT for prode_fixtures only", acl)
	}

	// Later releases' down migrations first, as golang-migrate would run them.
	down(t, db, "fixtures/000005_preguntas.down.sql", "fixtures/000003_auditoria.down.sql")
	if after := objects(t, db); after != objectsBefore {
		t.Errorf("the down migration left the schema different:\nbefore:\n%s\nafter:\n%s", objectsBefore, after)
	}
}
