package migrations

// What the tests of this package share. They run on the real PostgreSQL that `make test`
// starts (dev/test-env.sh), each in a database of its own.

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"

	"prode/migrations/testdb"
)

func testDatabase(t *testing.T) string { return testdb.New(t, "migrations_test") }

// releaseBefore is a test database migrated as the release before the given migrations
// ("schema/version", each and every later one of its schema left out): where a migration's test
// starts, with the data of a deployment already in use added next.
func releaseBefore(t *testing.T, migrations ...string) string {
	t.Helper()
	db := testDatabase(t)
	up(t, db, withoutFrom(t, migrations...))
	return db
}

// logBuffer collects a Migrator's JSON log lines. A Migrator logs from the goroutine that runs
// it, and each test reads a migrator's log once it has returned, so it needs no lock.
type logBuffer struct{ bytes.Buffer }

// lines returns the log lines whose message starts with prefix.
func (b *logBuffer) lines(t *testing.T, prefix string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if msg, _ := m["msg"].(string); strings.HasPrefix(msg, prefix) {
			out = append(out, m)
		}
	}
	return out
}

// migrator migrates with files (nil: the real migrations), recovering a failed migration, and
// logs to the returned buffer (shown when the test fails).
func migrator(t *testing.T, files fs.FS) (Migrator, *logBuffer) {
	logs := &logBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, nil))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("migrator log:\n%s", logs.String())
		}
	})
	return Migrator{Log: log, RecoverDirty: true, Files: files}, logs
}

// up migrates dbURL with files as migrator does, failing the test on an error, and returns the
// log.
func up(t *testing.T, dbURL string, files fs.FS) *logBuffer {
	t.Helper()
	mg, logs := migrator(t, files)
	if err := mg.Up(context.Background(), dbURL, nil); err != nil {
		t.Fatal(err)
	}
	return logs
}

// upFails migrates dbURL with the real migrations plus extra (withFiles), which must fail, and
// returns what the error says.
func upFails(t *testing.T, dbURL string, extra map[string]string) string {
	t.Helper()
	mg, _ := migrator(t, withFiles(t, extra))
	err := mg.Up(context.Background(), dbURL, nil)
	if err == nil {
		t.Fatal("the failing migration succeeded")
	}
	return err.Error()
}

// withFiles is the real migrations plus extra (path -> SQL), replacing files of the same path;
// a path whose SQL is "" is left out.
func withFiles(t *testing.T, extra map[string]string) fs.FS {
	t.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Files, path)
		out[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for path, sql := range extra {
		if sql == "" {
			delete(out, path)
		} else {
			out[path] = &fstest.MapFile{Data: []byte(sql)}
		}
	}
	return out
}

// withoutFrom is the real migrations without those of each schema named from the version given
// on ("scoring/000004": scoring's 000004 and later, this release's and any later one's), so that
// a test starts from the deployment before a release.
func withoutFrom(t *testing.T, from ...string) fs.FS {
	t.Helper()
	blank := map[string]string{}
	for _, f := range from {
		schema, version, _ := strings.Cut(f, "/")
		names, err := fs.Glob(Files, schema+"/*.sql")
		if err != nil || len(names) == 0 {
			t.Fatalf("migrations of %s: %v %v", schema, names, err)
		}
		for _, name := range names {
			if path.Base(name) >= version {
				blank[name] = ""
			}
		}
	}
	return withFiles(t, blank)
}

// down runs the down migrations named (paths in Files), in that order, as golang-migrate would.
func down(t *testing.T, dbURL string, files ...string) {
	t.Helper()
	for _, file := range files {
		sql, err := fs.ReadFile(Files, file)
		if err != nil {
			t.Fatal(err)
		}
		exec(t, dbURL, string(sql))
	}
}

func status(t *testing.T, dbURL string) map[string]Status {
	t.Helper()
	list, err := Migrator{}.Status(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Status{}
	for _, s := range list {
		out[s.Schema] = s
	}
	return out
}

// wantLatest: every schema at the latest version of the real migrations, clean.
func wantLatest(t *testing.T, dbURL string) {
	t.Helper()
	for schema, s := range status(t, dbURL) {
		if s.Dirty || s.Version != s.Latest || s.Latest == NoVersion {
			t.Errorf("schema %s: version %d dirty %v, want %d clean", schema, s.Version, s.Dirty, s.Latest)
		}
	}
}

// dial opens a connection of its own to dbURL; the caller closes it.
func dial(t *testing.T, dbURL string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

func query[T any](t *testing.T, dbURL, sql string, args ...any) T {
	t.Helper()
	conn := dial(t, dbURL)
	defer conn.Close(context.Background())
	var v T
	if err := conn.QueryRow(context.Background(), sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

func exec(t *testing.T, dbURL, sql string) {
	t.Helper()
	if err := execErr(t, dbURL, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// execErr runs sql and returns its error.
func execErr(t *testing.T, dbURL, sql string) error {
	t.Helper()
	conn := dial(t, dbURL)
	defer conn.Close(context.Background())
	_, err := conn.Exec(context.Background(), sql)
	return err
}

// objects lists the tables, views, functions and grants of our schemas, to compare.
func objects(t *testing.T, dbURL string) string {
	// An object without an access list has the defaults (acldefault): a revoke that restores
	// them writes them out, and means the same.
	return query[string](t, dbURL, `SELECT string_agg(o, E'\n' ORDER BY o) FROM (
		SELECT format('%s %s.%s %s', c.relkind, n.nspname, c.relname,
		              coalesce(c.relacl, acldefault((CASE c.relkind WHEN 'S' THEN 's' ELSE 'r' END)::"char", c.relowner))) AS o
		  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		 WHERE n.nspname IN ('players', 'fixtures', 'predictions', 'scoring')
		UNION ALL
		SELECT format('f %s.%s %s', n.nspname, p.proname, coalesce(p.proacl, acldefault('f'::"char", p.proowner)))
		  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		 WHERE n.nspname IN ('players', 'fixtures', 'predictions', 'scoring')) x`)
}

func tableExists(t *testing.T, dbURL, table string) bool {
	return query[bool](t, dbURL, "SELECT to_regclass($1) IS NOT NULL", table)
}
