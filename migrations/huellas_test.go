package migrations

import (
	"testing"
)

// scoring 000009 gives each match's points rows a fingerprint of their predictions: a match
// scored before it has none (not known: its next change subtracts its rows), the fingerprint
// function is what the scoring role can call and tells a changed prediction from the one it
// replaced; the down migration leaves the schema exactly as it was.
func TestHuellasMigrateAndRollBack(t *testing.T) {
	db := releaseBefore(t, "scoring/000009")
	exec(t, db, `
		INSERT INTO scoring.partidos_contados (partido_id, torneo_id, goles_local, goles_visitante, conocido, evento)
		VALUES (1, 1, 2, 1, true, 5);`)
	objectsBefore := objects(t, db)

	up(t, db, nil)
	if n := query[int64](t, db, `SELECT count(*) FROM scoring.partidos_contados WHERE huella IS NULL`); n != 1 {
		t.Errorf("a match scored before the migration: %d rows without a fingerprint, want 1", n)
	}
	if ok := query[bool](t, db, `
		SELECT scoring.huella_de(7, 2, 1) = scoring.huella_de(7, 2, 1)
		   AND scoring.huella_de(7, 2, 1) <> scoring.huella_de(7, 1, 2)
		   AND scoring.huella_de(7, 2, 1) <> scoring.huella_de(8, 2, 1)
		   AND scoring.huella_de(7, 2, 1) BETWEEN 0 AND 1099511627775`); !ok {
		t.Error("huella_de: not a 40-bit function of the player and the score that tells a changed prediction apart")
	}
	if ok := query[bool](t, db, `SELECT has_function_privilege('prode_scoring', 'scoring.huella_de(bigint, integer, integer)', 'EXECUTE')`); !ok {
		t.Error("prode_scoring cannot call scoring.huella_de")
	}

	down(t, db, "scoring/000009_huellas.down.sql")
	if after := objects(t, db); after != objectsBefore {
		t.Errorf("the down migration left the schema different:\nbefore:\n%s\nafter:\n%s", objectsBefore, after)
	}
}
