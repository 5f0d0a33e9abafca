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
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx" for golang-migrate
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

// connectPatience is how long the first connection keeps trying: in a fresh release the
// database, or the route to its Service, may be ready a few seconds after the Job starts.
const connectPatience = time.Minute

// connect opens the migrating connection, trying again every two seconds for connectPatience
// while the database cannot be reached (never when it answers with an error, such as a wrong
// password). Each try dials with a short timeout, so that a first packet lost before the
// Service's route existed is not waited on for the kernel's two minutes.
func connect(ctx context.Context, adminURL string, log *slog.Logger) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(adminURL)
	if err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 5 * time.Second
	}
	deadline := time.Now().Add(connectPatience)
	for {
		conn, err := pgx.ConnectConfig(ctx, cfg)
		var answered *pgconn.PgError
		if err == nil || errors.As(err, &answered) || time.Now().After(deadline) {
			return conn, err
		}
		log.Info("database not reachable yet; trying again", slog.String("error", err.Error()))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

func bootstrap(ctx context.Context, adminURL string, passwords map[string]string, log *slog.Logger) error {
	conn, err := connect(ctx, adminURL, log)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, schema := range Schemas {
		role := pgx.Identifier{Role(schema)}.Sanitize()
		// CREATE ROLE has no IF NOT EXISTS; a parallel migrator may win the race.
		_, err := conn.Exec(ctx, fmt.Sprintf(`DO $$ BEGIN
			IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = %s) THEN CREATE ROLE %s LOGIN; END IF;
			EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
			quoteLiteral(Role(schema)), role))
		if err != nil {
			return err
		}
		if pw := passwords[schema]; pw != "" {
			if _, err := conn.Exec(ctx, fmt.Sprintf(`ALTER ROLE %s PASSWORD %s`, role, quoteLiteral(pw))); err != nil {
				return err
			}
		}
		stmts := []string{
			fmt.Sprintf(`CREATE SCHEMA IF NOT EXISTS %s`, pgx.Identifier{schema}.Sanitize()),
			fmt.Sprintf(`ALTER ROLE %s SET search_path = %s`, role, pgx.Identifier{schema}.Sanitize()),
		}
		for _, stmt := range stmts {
			if _, err := conn.Exec(ctx, stmt); err != nil && !isDuplicate(err) {
				return err
			}
		}
	}
	return nil
}

// session is golang-migrate opened on one schema.
type session struct {
	db       *sql.DB
	driver   database.Driver
	src      source.Driver
	m        *migrate.Migrate
	versions []uint // every version in the source, ascending
}

func (s *session) close() {
	_, _ = s.m.Close() // closes the source and the driver's pinned connection
	_ = s.db.Close()
}

func (mg Migrator) open(adminURL, schema string) (*session, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	db, err := sql.Open("pgx", u.String())
	if err != nil {
		return nil, err
	}
	// MultiStatementEnabled stays false: the driver must send each file as one query (one
	// transaction), not statement by statement.
	driver, err := migratepgx.WithInstance(db, &migratepgx.Config{SchemaName: schema, MigrationsTable: versionTable})
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	if mg.wrapDriver != nil {
		driver = mg.wrapDriver(driver)
	}
	fail := func(err error) (*session, error) {
		_ = driver.Close()
		_ = db.Close()
		return nil, err
	}
	sub, err := fs.Sub(mg.files(), schema)
	if err != nil {
		return fail(err)
	}
	src, err := iofs.New(sub, ".")
	if err != nil {
		return fail(err)
	}
	s := &session{db: db, driver: driver,
		src: recordingSource{Driver: src, table: pgx.Identifier{schema, versionTable}.Sanitize()}}
	if s.versions, err = sourceVersions(src); err == nil {
		s.m, err = migrate.NewWithInstance("iofs", s.src, "pgx5", driver)
	}
	if err != nil {
		_ = src.Close()
		return fail(err)
	}
	return s, nil
}

func (mg Migrator) versions(schema string) ([]uint, error) {
	sub, err := fs.Sub(mg.files(), schema)
	if err != nil {
		return nil, err
	}
	src, err := iofs.New(sub, ".")
	if err != nil {
		return nil, err
	}
	defer src.Close()
	return sourceVersions(src)
}

func sourceVersions(src source.Driver) ([]uint, error) {
	var out []uint
	v, err := src.First()
	for err == nil {
		out = append(out, v)
		v, err = src.Next(v)
	}
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	return out, err
}

func (mg Migrator) upSchema(adminURL, schema string) (int, error) {
	s, err := mg.open(adminURL, schema)
	if err != nil {
		return 0, err
	}
	defer s.close()
	if err := mg.recoverDirty(schema, s); err != nil {
		return 0, err
	}
	if err := s.m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return 0, s.failure(err)
	}
	version, _, err := s.driver.Version()
	return version, err
}

// recoverDirty sets a dirty schema's version back to the one before the failed migration.
// It holds golang-migrate's lock (a PostgreSQL advisory lock) from reading the version to
// writing it: a schema is also dirty while another migrator is running that migration, and
// that migrator holds the lock until it has finished or failed.
func (mg Migrator) recoverDirty(schema string, s *session) (err error) {
	if err := s.driver.Lock(); err != nil {
		return err
	}
	defer func() {
		if uerr := s.driver.Unlock(); err == nil {
			err = uerr
		}
	}()
	version, dirty, err := s.driver.Version()
	if err != nil || !dirty {
		return err
	}
	derr := &DirtyError{Schema: schema, Version: version, Previous: previousVersion(s.versions, version)}
	if version == NoVersion || !mg.RecoverDirty {
		return derr
	}
	attrs := []any{slog.String("schema", schema), slog.Int("failed_version", version),
		slog.Int("forced_version", derr.Previous)}
	if name := s.name(version); name != "" {
		attrs = append(attrs, slog.String("failed_migration", name))
	}
	mg.log().Warn("recovering a failed migration: the previous run failed at failed_version and its "+
		"transaction rolled back; forcing the version to forced_version (-1: none) and migrating again", attrs...)
	return s.driver.SetVersion(derr.Previous, false)
}

// previousVersion is the highest of versions below v, or NoVersion.
func previousVersion(versions []uint, v int) int {
	prev := NoVersion
	for _, x := range versions {
		if int(x) < v {
			prev = int(x)
		}
	}
	return prev
}

// failure names the migration that failed and keeps its SQL out of the message (golang-migrate
// puts the whole file in it).
func (s *session) failure(err error) error {
	var e database.Error
	if ep := (*database.Error)(nil); errors.As(err, &ep) {
		e = *ep
	} else if !errors.As(err, &e) {
		return err
	}
	cause := e.Err
	if pgErr := (*pgconn.PgError)(nil); errors.As(e.OrigErr, &pgErr) {
		cause = fmt.Sprintf("%s (SQLSTATE %s)", pgErr.Message, pgErr.Code)
		if pgErr.Position > 0 { // a syntax error: where in the file
			cause += fmt.Sprintf(" at line %d", e.Line)
		}
		if pgErr.Detail != "" {
			cause += ": " + pgErr.Detail
		}
	} else if e.OrigErr != nil {
		cause = strings.TrimSpace(cause + " " + e.OrigErr.Error())
	}
	version, dirty, verr := s.driver.Version()
	if verr != nil || !dirty {
		return &failedError{cause, e.OrigErr}
	}
	name := fmt.Sprint(version)
	if id := s.name(version); id != "" {
		name = fmt.Sprintf("%d (%s)", version, id)
	}
	return &failedError{fmt.Sprintf("migration %s failed and its transaction rolled back, leaving the "+
		"schema dirty at %d: %s", name, version, cause), e.OrigErr}
}

type failedError struct {
	msg string
	err error
}

func (e *failedError) Error() string { return e.msg }
func (e *failedError) Unwrap() error { return e.err }

// name is the identifier of migration version in the source ("codigos_dev_usados" for
// 000002_codigos_dev_usados.up.sql), or "".
func (s *session) name(version int) string {
	if version < 0 {
		return ""
	}
	r, id, err := s.src.ReadUp(uint(version))
	if err != nil {
		return ""
	}
	_ = r.Close()
	return id
}

// recordingSource appends to every up migration an UPDATE that clears the version's dirty flag,
// so that it commits in the migration's own transaction. golang-migrate marks the version dirty
// before running the file and clean after it in a separate transaction; a migrator killed in
// between (or losing its connection as the file commits) would leave a dirty schema whose
// migration did apply, and recovery would run it twice. With the UPDATE, dirty at N means N
// did not commit.
type recordingSource struct {
	source.Driver
	table string // the quoted version table
}

func (s recordingSource) ReadUp(version uint) (io.ReadCloser, string, error) {
	r, id, err := s.Driver.ReadUp(version)
	if err != nil {
		return r, id, err
	}
	// The newline ends a trailing "--" comment, the semicolon an unterminated last statement.
	mark := fmt.Sprintf("\n;\nUPDATE %s SET dirty = false WHERE version = %d;\n", s.table, version)
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(r, strings.NewReader(mark)), r}, id, nil
}

func quoteLiteral(s string) string {
	out := []byte{'\''}
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			out = append(out, '\'')
		}
		out = append(out, s[i])
	}
	return string(append(out, '\''))
}

// isDuplicate: two migrators creating the same schema or setting the same role setting at
// once; the loser's error is harmless.
func isDuplicate(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505" || pgErr.Code == "42P06" ||
			pgErr.Code == "XX000" && pgErr.Message == "tuple concurrently updated"
	}
	return false
}
