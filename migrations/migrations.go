// Package migrations holds the SQL of every schema and applies it: one PostgreSQL database,
// one schema and one login role per service, grants on published views only.
//
// Every migration file runs in one transaction (golang-migrate's pgx/v5 driver sends the file as
// one simple-protocol query, which PostgreSQL runs as one implicit transaction;
// TestMigrationsRunInOneTransaction keeps the files fit for that), and the transaction itself
// clears the version's dirty flag (recordingSource). So a schema left dirty at version N means
// that N failed and left nothing behind: the right version is the one before N, and Up restores
// it by itself (Migrator.RecoverDirty).
package migrations

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"

	"github.com/golang-migrate/migrate/v4/database"
	"github.com/jackc/pgx/v5"
)

//go:embed players fixtures predictions scoring
var files embed.FS

// Files is every migration, for tests that key a migrated template on their content.
var Files fs.FS = files

// Schemas in the order they migrate: a schema grants on its views to the roles of the
// schemas after it, and reads only the views of those before it.
var Schemas = []string{"players", "fixtures", "predictions", "scoring"}

// NoVersion stands for "no migration applied" in Force and Status (golang-migrate's nil version).
const NoVersion = database.NilVersion

// versionTable is golang-migrate's default table, one per schema: its single row holds the
// schema's version and whether the last migration to that version is unfinished ("dirty").
const versionTable = "schema_migrations"

// Role is the login role of the service that owns schema.
func Role(schema string) string { return "prode_" + schema }

// Up creates the roles and schemas when missing, sets the roles' passwords when given
// (schema -> password), and applies every schema's migrations, first recovering a schema that
// a failed run left dirty. adminURL must be allowed to create roles and schemas.
func Up(ctx context.Context, adminURL string, passwords map[string]string, log *slog.Logger) error {
	return Migrator{Log: log, RecoverDirty: true}.Up(ctx, adminURL, passwords)
}

// Migrator applies, forces and reports the migrations of every schema.
type Migrator struct {
	Log *slog.Logger
	// RecoverDirty: before migrating a schema left dirty at version N by a failed run, log it
	// and set the schema's version back to the highest one below N (none if there is none).
	// That is exact because N's transaction rolled back (see the package comment). Off, Up
	// stops at a dirty schema with a *DirtyError and an operator runs Force.
	RecoverDirty bool
	// Files holds one folder of migrations per schema; nil means the embedded ones.
	Files fs.FS

	// wrapDriver, in tests, stands between golang-migrate and the database to fail on cue.
	wrapDriver func(database.Driver) database.Driver
}

// DirtyError: a schema is dirty (a run failed at Version) and recovery is off or impossible.
// Up returns it wrapped with the schema's name.
type DirtyError struct {
	Schema  string
	Version int
	// Previous is the version recovery sets: the highest below Version, or NoVersion.
	Previous int
}

func (e *DirtyError) Error() string {
	if e.Version == NoVersion {
		return "dirty with no version: a down migration of the first version failed (this command " +
			"never runs one); check what it left, then force the version"
	}
	return fmt.Sprintf("dirty at version %d: a previous run failed there and its transaction "+
		"rolled back, so the schema is at %s", e.Version, versionText(e.Previous))
}

func versionText(v int) string {
	if v == NoVersion {
		return "no version"
	}
	return fmt.Sprintf("version %d", v)
}

// Up creates the roles and schemas when missing, sets the roles' passwords when given
// (schema -> password), and applies every schema's migrations.
func (mg Migrator) Up(ctx context.Context, adminURL string, passwords map[string]string) error {
	if err := bootstrap(ctx, adminURL, passwords, mg.log()); err != nil {
		return fmt.Errorf("roles and schemas: %w", err)
	}
	for _, schema := range Schemas {
		version, err := mg.upSchema(adminURL, schema)
		if err != nil {
			return fmt.Errorf("schema %s: %w", schema, err)
		}
		mg.log().Info("migrated", slog.String("schema", schema), slog.Int("version", version))
	}
	return nil
}

// Force records schema as migrated to version (NoVersion: none), clean, running nothing: the
// manual way out of a dirty schema. version must be one of the schema's migrations.
func (mg Migrator) Force(ctx context.Context, adminURL, schema string, version int) error {
	if !slices.Contains(Schemas, schema) {
		return fmt.Errorf("unknown schema %q (one of %s)", schema, strings.Join(Schemas, ", "))
	}
	s, err := mg.open(adminURL, schema)
	if err != nil {
		return fmt.Errorf("schema %s: %w", schema, err)
	}
	defer s.close()
	if version != NoVersion && (version < 0 || !slices.Contains(s.versions, uint(version))) {
		return fmt.Errorf("schema %s has no migration %d (its versions: %v)", schema, version, s.versions)
	}
	before, dirty, err := s.driver.Version()
	if err != nil {
		return fmt.Errorf("schema %s: %w", schema, err)
	}
	if err := s.m.Force(version); err != nil {
		return fmt.Errorf("schema %s: %w", schema, err)
	}
	mg.log().Warn("forced the schema's version; no migration ran", slog.String("schema", schema),
		slog.Int("previous_version", before), slog.Bool("previous_dirty", dirty), slog.Int("version", version))
	return nil
}

// Status is a schema's version (NoVersion: none), whether it is dirty, and the latest version
// among its migrations.
type Status struct {
	Schema  string
	Version int
	Dirty   bool
	Latest  int
}

// Status reads every schema's version without changing anything.
func (mg Migrator) Status(ctx context.Context, adminURL string) ([]Status, error) {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	var out []Status
	for _, schema := range Schemas {
		st := Status{Schema: schema, Version: NoVersion, Latest: NoVersion}
		versions, err := mg.versions(schema)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", schema, err)
		}
		if len(versions) > 0 {
			st.Latest = int(versions[len(versions)-1])
		}
		table := pgx.Identifier{schema, versionTable}.Sanitize()
		var exists bool
		if err := conn.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", table).Scan(&exists); err != nil {
			return nil, fmt.Errorf("schema %s: %w", schema, err)
		}
		if exists {
			err := conn.QueryRow(ctx, "SELECT version, dirty FROM "+table+" LIMIT 1").Scan(&st.Version, &st.Dirty)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return nil, fmt.Errorf("schema %s: %w", schema, err)
			}
		}
		out = append(out, st)
	}
	return out, nil
}

func (mg Migrator) log() *slog.Logger {
	if mg.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return mg.Log
}

func (mg Migrator) files() fs.FS {
	if mg.Files == nil {
		return files
	}
	return mg.Files
}

func (e *failedError) Error() string { return e.msg }
func (e *failedError) Unwrap() error { return e.err }
