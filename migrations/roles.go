package migrations

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

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

// bootstrap makes what the migrations run in and as: each service's role (its password when one
// is given) and schema, the role's search_path set to its schema. Every step may run while
// another migrator runs the same (a Job retried, two releases).
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

// quoteLiteral quotes s as an SQL string literal (quotes doubled): CREATE ROLE and ALTER ROLE
// take no bind parameters.
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
