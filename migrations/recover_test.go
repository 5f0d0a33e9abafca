package migrations

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-migrate/migrate/v4/database"
	"github.com/jackc/pgx/v5/pgconn"
)

// A migration that did part of its work (a table, a row) and then failed leaves the schema
// dirty and nothing of its work; the next run with the fixed migrations recovers, logs it once,
// and migrates every schema with their data intact.
func TestUpRecoversFromAFailedMigration(t *testing.T) {
	ctx := context.Background()
	db := testDatabase(t)
	up(t, db, nil)
	wantLatest(t, db)
	exec(t, db, `INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ('sub-1', 'ana@prode.test', 'Ana')`)
	before := objects(t, db)
	latest := status(t, db)["players"].Latest

	failing := fmt.Sprintf("players/%06d_falla.up.sql", latest+1)
	broken, logs := migrator(t, withFiles(t, map[string]string{
		failing: `CREATE TABLE players.rastro (x int);
INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ('sub-2', 'beto@prode.test', 'Beto');
SELECT 1 / 0;
`,
		strings.Replace(failing, ".up.", ".down.", 1): "DROP TABLE players.rastro;\n",
	}))
	for run := 1; run <= 2; run++ { // the second run recovers, then fails again: still dirty
		err := broken.Up(ctx, db, nil)
		if err == nil {
			t.Fatalf("run %d: the failing migration succeeded", run)
		}
		msg := err.Error()
		t.Logf("run %d: %s", run, msg)
		for _, want := range []string{"schema players", fmt.Sprintf("migration %d (falla)", latest+1), "division by zero"} {
			if !strings.Contains(msg, want) {
				t.Errorf("run %d: error %q does not say %q", run, msg, want)
			}
		}
		if pgErr := (*pgconn.PgError)(nil); !errors.As(err, &pgErr) || pgErr.Code != "22012" {
			t.Errorf("run %d: error %v does not wrap PostgreSQL's division_by_zero", run, err)
		}
		if strings.Contains(msg, "CREATE TABLE") {
			t.Errorf("run %d: error holds the migration's SQL: %q", run, msg)
		}
		if s := status(t, db)["players"]; s.Version != latest+1 || !s.Dirty {
			t.Fatalf("run %d: players at %d dirty %v, want %d dirty", run, s.Version, s.Dirty, latest+1)
		}
		if tableExists(t, db, "players.rastro") {
			t.Fatalf("run %d: the failed migration's table exists", run)
		}
		if n := query[int](t, db, "SELECT count(*) FROM players.jugadores"); n != 1 {
			t.Fatalf("run %d: %d players, want 1 (the failed migration's row is gone)", run, n)
		}
	}
	if got := len(logs.lines(t, "recovering a failed migration")); got != 1 {
		t.Errorf("the failing source logged %d recoveries, want 1 (on its second run)", got)
	}

	logs = up(t, db, nil) // the run after the failure
	wantLatest(t, db)
	if after := objects(t, db); after != before {
		t.Errorf("schema objects changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if n := query[string](t, db, "SELECT string_agg(nombre, ',') FROM players.jugadores"); n != "Ana" {
		t.Errorf("players after recovery: %q, want Ana", n)
	}
	rec := logs.lines(t, "recovering a failed migration")
	if len(rec) != 1 {
		t.Fatalf("%d recovery log lines, want 1", len(rec))
	}
	want := map[string]any{"level": "WARN", "schema": "players", "failed_version": float64(latest + 1),
		"forced_version": float64(latest)}
	for k, v := range want {
		if v != nil && rec[0][k] != v {
			t.Errorf("recovery log %s = %v, want %v (line %v)", k, rec[0][k], v, rec[0])
		}
	}
	if _, ok := rec[0]["failed_migration"]; ok {
		t.Errorf("the fixed source has no migration %d, yet the log names one: %v", latest+1, rec[0])
	}

	// Nothing left to recover: a further run changes nothing and logs no recovery.
	if got := up(t, db, nil).lines(t, "recovering"); len(got) != 0 {
		t.Errorf("a clean run logged a recovery: %v", got)
	}
}

// The first migration of a schema fails: recovery removes the version altogether.
func TestUpRecoversAFailedFirstMigration(t *testing.T) {
	db := testDatabase(t)
	upFails(t, db, map[string]string{
		"players/000001_players.up.sql": "CREATE TABLE players.jugadores (id int);\nSELECT no_such_function();\n",
	})
	if s := status(t, db)["players"]; s.Version != 1 || !s.Dirty {
		t.Fatalf("players at %d dirty %v, want 1 dirty", s.Version, s.Dirty)
	}
	if tableExists(t, db, "players.jugadores") {
		t.Fatal("the failed first migration's table exists")
	}
	logs := up(t, db, nil)
	wantLatest(t, db)
	rec := logs.lines(t, "recovering a failed migration")
	if len(rec) != 1 || rec[0]["forced_version"] != float64(NoVersion) || rec[0]["failed_migration"] != "players" {
		t.Errorf("recovery log: %v, want forced_version -1 and failed_migration players", rec)
	}
}

// A syntax error is reported with its line in the file, and recovered like any failure.
func TestSyntaxErrorNamesItsLine(t *testing.T) {
	db := testDatabase(t)
	msg := upFails(t, db, map[string]string{
		"fixtures/000099_sintaxis.up.sql": "-- a comment\nSELECT 1;\n\nSELEC 2;\n",
	})
	if !strings.Contains(msg, "migration 99 (sintaxis) failed") ||
		!strings.Contains(msg, "syntax error") || !strings.Contains(msg, "at line 4") {
		t.Fatalf("Up: %s, want the migration, the syntax error and line 4", msg)
	}
	up(t, db, nil)
	wantLatest(t, db)
}

// With recovery off, a dirty schema stops Up and stays as it is; Force is the way out.
func TestRecoveryOffAndForce(t *testing.T) {
	ctx := context.Background()
	db := testDatabase(t)
	upFails(t, db, map[string]string{
		"predictions/000099_falla.up.sql": "ALTER TABLE predictions.apuestas ADD COLUMN nota text;\nSELECT 1 / 0;\n",
	})
	off, logs := migrator(t, nil)
	off.RecoverDirty = false
	err := off.Up(ctx, db, nil)
	var derr *DirtyError
	if !errors.As(err, &derr) || derr.Schema != "predictions" || derr.Version != 99 || derr.Previous != 4 {
		t.Fatalf("Up with recovery off: %v, want a DirtyError for predictions at 99 (previous 4)", err)
	}
	if s := status(t, db)["predictions"]; s.Version != 99 || !s.Dirty {
		t.Fatalf("predictions at %d dirty %v, want 99 dirty: recovery off must leave it", s.Version, s.Dirty)
	}
	if got := logs.lines(t, "recovering"); len(got) != 0 {
		t.Errorf("recovery off, yet logged: %v", got)
	}

	for _, bad := range []struct {
		schema  string
		version int
	}{{"nope", 1}, {"predictions", 99}, {"predictions", 0}, {"predictions", -2}} {
		if err := off.Force(ctx, db, bad.schema, bad.version); err == nil {
			t.Errorf("Force(%s, %d) succeeded", bad.schema, bad.version)
		}
	}
	if err := off.Force(ctx, db, "predictions", 4); err != nil {
		t.Fatal(err)
	}
	forced := logs.lines(t, "forced")
	if len(forced) != 1 || forced[0]["previous_version"] != float64(99) || forced[0]["previous_dirty"] != true ||
		forced[0]["version"] != float64(4) {
		t.Errorf("force log: %v", forced)
	}
	if tableHasColumn := query[bool](t, db, `SELECT EXISTS (SELECT FROM information_schema.columns
		WHERE table_schema = 'predictions' AND table_name = 'apuestas' AND column_name = 'nota')`); tableHasColumn {
		t.Error("the failed migration's column exists")
	}
	if err := off.Up(ctx, db, nil); err != nil {
		t.Fatalf("Up after Force: %v", err)
	}
	wantLatest(t, db)
}

// failSetClean makes golang-migrate's "mark clean" after migration version fail once, as if the
// migrator died right after the migration committed.
type failSetClean struct {
	database.Driver
	version int
	failed  bool
}

func (d *failSetClean) SetVersion(version int, dirty bool) error {
	if version == d.version && !dirty && !d.failed {
		d.failed = true
		return errors.New("migrator killed after the migration committed")
	}
	return d.Driver.SetVersion(version, dirty)
}

// A migration that committed is never recovered and run again, even when the migrator died
// before golang-migrate marked it clean: the migration's own transaction marks it.
func TestCommittedMigrationIsNotRunTwice(t *testing.T) {
	ctx := context.Background()
	db := testDatabase(t)
	files := withFiles(t, map[string]string{
		"scoring/000099_extra.up.sql": "CREATE TABLE scoring.extra (x int);\n-- a trailing comment, no newline",
	})
	mg, _ := migrator(t, files)
	// Only scoring has a version 99 (far above every schema's real migrations).
	mg.wrapDriver = func(d database.Driver) database.Driver { return &failSetClean{Driver: d, version: 99} }
	if err := mg.Up(ctx, db, nil); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("Up: %v, want the injected failure", err)
	}
	if s := status(t, db)["scoring"]; s.Version != 99 || s.Dirty {
		t.Fatalf("scoring at %d dirty %v, want 99 clean", s.Version, s.Dirty)
	}
	again, logs := migrator(t, files)
	if err := again.Up(ctx, db, nil); err != nil {
		t.Fatalf("the next run: %v", err)
	}
	if got := logs.lines(t, "recovering"); len(got) != 0 {
		t.Errorf("logged a recovery of a committed migration: %v", got)
	}
	if !tableExists(t, db, "scoring.extra") {
		t.Error("scoring.extra is missing")
	}
}

// beforeFirstUse runs fn before the driver is first locked or read.
type beforeFirstUse struct {
	database.Driver
	once *sync.Once
	fn   func()
}

func (d beforeFirstUse) Lock() error {
	d.once.Do(d.fn)
	return d.Driver.Lock()
}

func (d beforeFirstUse) Version() (int, bool, error) {
	d.once.Do(d.fn)
	return d.Driver.Version()
}

// A schema is dirty while a migrator runs a migration; another migrator looking at it then must
// wait for it, not take the migration for a failed one.
func TestRecoveryWaitsForARunningMigrator(t *testing.T) {
	ctx := context.Background()
	db := testDatabase(t)
	up(t, db, nil)
	files := withFiles(t, map[string]string{
		"players/000099_lenta.up.sql": "SELECT pg_sleep(1);\nCREATE TABLE players.lenta (x int);\n",
	})
	first, _ := migrator(t, files)
	done := make(chan error, 1)
	// The second migrator has opened players; before it looks at the version, the first one
	// starts migration 99 and the schema is dirty.
	startFirst := func() {
		go func() { done <- first.Up(ctx, db, nil) }()
		deadline := time.Now().Add(20 * time.Second)
		for {
			list, err := Migrator{}.Status(ctx, db)
			if err == nil && list[0].Version == 99 && list[0].Dirty {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("players never dirty at 99 (last status %v, %v)", list, err)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	second, logs := migrator(t, files)
	once := &sync.Once{}
	second.wrapDriver = func(d database.Driver) database.Driver {
		return beforeFirstUse{Driver: d, once: once, fn: startFirst}
	}
	if err := second.Up(ctx, db, nil); err != nil {
		t.Errorf("the second migrator: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("the first migrator: %v", err)
	}
	if got := logs.lines(t, "recovering"); len(got) != 0 {
		t.Errorf("the second migrator took a running migration for a failed one: %v", got)
	}
	if s := status(t, db)["players"]; s.Version != 99 || s.Dirty {
		t.Errorf("players at %d dirty %v, want 99 clean", s.Version, s.Dirty)
	}
	if !tableExists(t, db, "players.lenta") {
		t.Error("players.lenta is missing")
	}
}
