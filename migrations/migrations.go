// Package migrations holds the SQL of every schema and applies it: one PostgreSQL database,
// one schema and one login role per service, grants on published views only.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"

	"github.com/golang-migrate/migrate/v4"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
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

// Role is the login role of the service that owns schema.
func Role(schema string) string { return "prode_" + schema }

// Up creates the roles and schemas when missing, sets the roles' passwords when given
// (schema -> password), and applies every schema's migrations. adminURL must be allowed to
// create roles and schemas.
func Up(ctx context.Context, adminURL string, passwords map[string]string, log *slog.Logger) error {
	if err := bootstrap(ctx, adminURL, passwords); err != nil {
		return fmt.Errorf("roles and schemas: %w", err)
	}
	for _, schema := range Schemas {
		version, err := upSchema(adminURL, schema)
		if err != nil {
			return fmt.Errorf("schema %s: %w", schema, err)
		}
		log.Info("migrated", slog.String("schema", schema), slog.Uint64("version", uint64(version)))
	}
	return nil
}

func bootstrap(ctx context.Context, adminURL string, passwords map[string]string) error {
	conn, err := pgx.Connect(ctx, adminURL)
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

func upSchema(adminURL, schema string) (uint, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return 0, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	db, err := sql.Open("pgx", u.String())
	if err != nil {
		return 0, err
	}
	defer db.Close()
	driver, err := migratepgx.WithInstance(db, &migratepgx.Config{SchemaName: schema})
	if err != nil {
		return 0, err
	}
	sub, err := fs.Sub(files, schema)
	if err != nil {
		return 0, err
	}
	src, err := iofs.New(sub, ".")
	if err != nil {
		return 0, err
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", driver)
	if err != nil {
		return 0, err
	}
	defer m.Close() // releases the connection the driver pins for its lock
	if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return 0, err
	}
	version, _, err := m.Version()
	return version, err
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

// isDuplicate: two migrators creating the same schema at once; the loser's error is harmless.
func isDuplicate(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505" || pgErr.Code == "42P06"
	}
	return false
}
