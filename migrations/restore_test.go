package migrations

import (
	"bytes"
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"testing"
)

// The restore of docs/operations.md ("Backups of the bundled PostgreSQL", step 2), run as the
// document writes it, on the real migrations: a backup of the release before scoring's latest
// migration goes into a database of this release where a player signed up after the backup.
// A backup cut short changes nothing and fails. The whole one gives the backup's players with
// every session closed, the service roles reading it through their grants, and the next
// `migrate up` (the helm upgrade of step 3) brings it to this release.
func TestTheDocumentedRestoreOfAnEarlierReleasesBackup(t *testing.T) {
	db := testDatabase(t)
	up(t, db, nil)
	exec(t, db, `INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ('sub-beto', 'beto@prode.test', 'Beto')`)

	latest := status(t, db)["scoring"].Latest
	earlier := releaseBefore(t, fmt.Sprintf("scoring/%06d", latest))
	exec(t, earlier, `INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ('sub-ana', 'ana@prode.test', 'Ana')`)
	exec(t, earlier, `INSERT INTO players.sesiones (id, jugador_id, expira)
		SELECT gen_random_uuid(), id, now() + interval '1 day' FROM players.jugadores`)
	backup := pgDump(t, earlier)

	if out, err := restore(t, db, backup[:len(backup)/2]); err == nil {
		t.Fatalf("a backup cut in half was restored:\n%s", out)
	}
	if names := query[string](t, db, `SELECT string_agg(nombre, ',') FROM players.jugadores`); names != "Beto" {
		t.Fatalf("after a failed restore the players are %q, want them untouched (Beto)", names)
	}

	if out, err := restore(t, db, backup); err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	if names := query[string](t, db, `SELECT string_agg(nombre, ',') FROM players.jugadores`); names != "Ana" {
		t.Errorf("restored players: %q, want the backup's (Ana)", names)
	}
	if open := query[int64](t, db, `SELECT count(*) FROM players.sesiones_vigentes`); open != 0 {
		t.Errorf("%d sessions open after the restore, want every one closed", open)
	}
	if v := status(t, db)["scoring"].Version; v != latest-1 {
		t.Errorf("scoring restored at version %d, want the backup's %d", v, latest-1)
	}
	up(t, db, nil)
	wantLatest(t, db)
	conn := dial(t, db)
	defer conn.Close(context.Background())
	var name string
	if _, err := conn.Exec(context.Background(), `SET ROLE prode_scoring`); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(context.Background(), `SELECT nombre FROM players.jugadores_publicados`).Scan(&name); err != nil || name != "Ana" {
		t.Errorf("scoring's role reads %q (%v) from the restored players, want Ana", name, err)
	}
}

// pgDump is the backup of docs/operations.md: pg_dump's custom format.
func pgDump(t *testing.T, dbURL string) []byte {
	t.Helper()
	out, err := osexec.Command("pg_dump", "-Fc", "-d", dbURL).Output()
	if err != nil {
		t.Fatalf("pg_dump: %v", err)
	}
	return out
}

// restore runs the document's restore script with backup as its input, on dbURL instead of the
// pod's database, and returns what it printed.
func restore(t *testing.T, dbURL string, backup []byte) ([]byte, error) {
	t.Helper()
	script := documentedRestore(t)
	const pods = "-U postgres -d prode"
	if strings.Count(script, pods) != 1 {
		t.Fatalf("the restore script names its database other than with %q:\n%s", pods, script)
	}
	cmd := osexec.Command("bash", "-c", strings.Replace(script, pods, `-d "$RESTORE_DATABASE_URL"`, 1))
	cmd.Env = append(os.Environ(), "RESTORE_DATABASE_URL="+dbURL)
	cmd.Stdin = bytes.NewReader(backup)
	return cmd.CombinedOutput()
}

// documentedRestore is the script docs/operations.md runs in PostgreSQL's pod, between
// "bash -c '" and "' < prode-DATE.dump".
func documentedRestore(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	const open, close = "-- bash -c '", "' < prode-DATE.dump"
	if bytes.Count(doc, []byte(open)) != 1 {
		t.Fatalf("docs/operations.md should hold one %q (the restore), holds %d", open, bytes.Count(doc, []byte(open)))
	}
	_, rest, _ := bytes.Cut(doc, []byte(open))
	script, _, found := bytes.Cut(rest, []byte(close))
	if !found {
		t.Fatalf("docs/operations.md: no %q after the restore's %q", close, open)
	}
	return string(script)
}
