package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"prode/migrations/testdb"
)

// The test binary runs as the command when MIGRATE_TEST_MAIN=1: each test starts it as an
// operator or the Job would.
func TestMain(m *testing.M) {
	if os.Getenv("MIGRATE_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "MIGRATE_TEST_MAIN=1", "MIGRATE_RECOVER_DIRTY="), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return result{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

// logLines are the JSON log lines of stderr whose message starts with prefix.
func (r result) logLines(t *testing.T, prefix string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		if msg, _ := m["msg"].(string); strings.HasPrefix(msg, prefix) {
			out = append(out, m)
		}
	}
	return out
}

func testDatabase(t *testing.T) string { return testdb.New(t, "migrate_cmd_test") }

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"force", "players"}, {"up", "extra"}, {"status", "x"}} {
		r := run(t, nil, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "migrate force SCHEMA VERSION") {
			t.Errorf("migrate %v: exit %d, stderr %q; want 2 and the usage", args, r.code, r.stderr)
		}
	}
	r := run(t, nil, "-h")
	if r.code != 0 || !strings.Contains(r.stdout, "MIGRATE_RECOVER_DIRTY") {
		t.Errorf("migrate -h: exit %d, stdout %q", r.code, r.stdout)
	}
}

// A schema left dirty at its first version by a failed run (nothing of it applied, as the
// migration's transaction rolled back): with recovery off the Job fails and says how to force;
// by default it recovers; force and status work as the usage says.
func TestDirtySchemaFromTheCommandLine(t *testing.T) {
	db := testDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA players;
		CREATE TABLE players.schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL);
		INSERT INTO players.schema_migrations VALUES (1, true)`); err != nil {
		t.Fatal(err)
	}
	env := []string{"DATABASE_URL=" + db}

	for _, bad := range []string{"maybe", "2"} {
		if r := run(t, append(env, "MIGRATE_RECOVER_DIRTY="+bad)); r.code != 2 {
			t.Errorf("MIGRATE_RECOVER_DIRTY=%s: exit %d, want 2 (%s)", bad, r.code, r.stderr)
		}
	}
	r := run(t, append(env, "MIGRATE_RECOVER_DIRTY=false"))
	failed := r.logLines(t, "migration failed")
	if r.code != 1 || len(failed) != 1 {
		t.Fatalf("recovery off: exit %d, stderr %s", r.code, r.stderr)
	}
	if fix, _ := failed[0]["fix"].(string); !strings.Contains(fix, "`migrate force players none`") {
		t.Errorf("recovery off: fix %q does not name the force command", fix)
	}

	r = run(t, env)
	if r.code != 0 {
		t.Fatalf("migrate: exit %d, stderr %s", r.code, r.stderr)
	}
	rec := r.logLines(t, "recovering a failed migration")
	if len(rec) != 1 || rec[0]["schema"] != "players" || rec[0]["failed_version"] != float64(1) ||
		rec[0]["forced_version"] != float64(-1) || rec[0]["failed_migration"] != "players" ||
		rec[0]["level"] != "WARN" || rec[0]["service"] != "migrate" {
		t.Errorf("recovery log: %v", rec)
	}
	if len(r.logLines(t, "migrated")) != 4 {
		t.Errorf("want a migrated line per schema: %s", r.stderr)
	}

	r = run(t, env, "status")
	st := r.logLines(t, "status")
	if r.code != 0 || len(st) != 4 {
		t.Fatalf("status: exit %d, stderr %s", r.code, r.stderr)
	}
	for _, s := range st {
		if s["dirty"] != false || s["version"] != s["latest"] {
			t.Errorf("status after recovery: %v", s)
		}
	}

	for _, args := range [][]string{{"force", "players", "x"}, {"force", "players", "-1"}} {
		if r := run(t, env, args...); r.code != 2 {
			t.Errorf("migrate %v: exit %d, want 2", args, r.code)
		}
	}
	if r := run(t, env, "force", "players", "99"); r.code != 1 {
		t.Errorf("force to a version that does not exist: exit %d, want 1", r.code)
	}
	r = run(t, env, "force", "players", "1")
	if forced := r.logLines(t, "forced"); r.code != 0 || len(forced) != 1 || forced[0]["version"] != float64(1) {
		t.Fatalf("force players 1: exit %d, stderr %s", r.code, r.stderr)
	}
	var version int
	var dirty bool
	if err := conn.QueryRow(ctx, "SELECT version, dirty FROM players.schema_migrations").Scan(&version, &dirty); err != nil {
		t.Fatal(err)
	}
	if version != 1 || dirty {
		t.Errorf("after force players 1: version %d dirty %v", version, dirty)
	}
	if r := run(t, env, "force", "players", "none"); r.code != 0 {
		t.Fatalf("force players none: exit %d, stderr %s", r.code, r.stderr)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM players.schema_migrations").Scan(&version); err != nil || version != 0 {
		t.Errorf("after force players none: %d rows (%v), want none", version, err)
	}
}
