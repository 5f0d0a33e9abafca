// Package testenv gives tests the real things: a fresh PostgreSQL database migrated with the
// real migrations, a Redis key space of their own, signed-in players, and an HTTP client that
// checks every response against the OpenAPI contract. `make test` starts the throwaway
// PostgreSQL and Redis and exports their URLs.
package testenv

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/migrations"
	"prode/migrations/testdb"
)

// DB is a database of one test's own.
type DB struct {
	Name  string
	admin *url.URL
}

// NewDB creates a database from a template migrated once per version of the migrations,
// and drops it when the test ends.
func NewDB(t testing.TB) *DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin := testdb.AdminURL(t)
	template := ensureTemplate(t, ctx, admin)
	u := testdb.Create(t, admin, "test", template)
	return &DB{Name: strings.TrimPrefix(u.Path, "/"), admin: admin}
}

// AdminURL connects as the superuser (to arrange data no service may write).
func (d *DB) AdminURL() string { return d.url(d.admin.User.Username()) }

// URL connects as the login role of the service that owns schema ("players", "fixtures"...).
func (d *DB) URL(schema string) string { return d.url(migrations.Role(schema)) }

func (d *DB) url(user string) string {
	u := *d.admin
	u.User = url.User(user)
	u.Path = "/" + d.Name
	return u.String()
}

// Pool opens a pool as the service role of schema, closed when the test ends.
func (d *DB) Pool(t testing.TB, schema string) *pgxpool.Pool {
	return d.pool(t, d.URL(schema))
}

// AdminPool opens a superuser pool, closed when the test ends.
func (d *DB) AdminPool(t testing.TB) *pgxpool.Pool { return d.pool(t, d.AdminURL()) }

func (d *DB) pool(t testing.TB, u string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), u)
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// ensureTemplate migrates a template database named after a hash of the migrations, once,
// under an advisory lock so that parallel test binaries do not race.
func ensureTemplate(t testing.TB, ctx context.Context, admin *url.URL) string {
	t.Helper()
	name := "prode_template_" + migrationsHash(t)
	conn, err := pgx.Connect(ctx, admin.String())
	if err != nil {
		t.Fatalf("connect to test PostgreSQL (%s): %v", admin.Redacted(), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(424242)"); err != nil {
		t.Fatal(err)
	}
	defer func() {
		// Closing the connection (deferred above, so after this) releases the lock anyway.
		if _, err := conn.Exec(context.Background(), "SELECT pg_advisory_unlock(424242)"); err != nil {
			t.Logf("release the template lock: %v", err)
		}
	}()
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if exists {
		return name
	}
	building := name + "_building"
	_, _ = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", building))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		t.Fatal(err)
	}
	u := *admin
	u.Path = "/" + building
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if err := migrations.Up(ctx, u.String(), nil, log); err != nil {
		t.Fatalf("migrate template: %v", err)
	}
	// Nothing may stay connected to a database that is renamed or used as a template.
	_, _ = conn.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", building)
	if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, name)); err != nil {
		t.Fatal(err)
	}
	return name
}

func migrationsHash(t testing.TB) string {
	h := sha256.New()
	err := fs.WalkDir(migrations.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.Files, path)
		h.Write([]byte(path))
		h.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
