package migrations

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx" for golang-migrate
)

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
