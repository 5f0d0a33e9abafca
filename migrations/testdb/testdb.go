// Package testdb gives tests a database of their own on the real PostgreSQL that `make test`
// starts (dev/test-env.sh), dropped when the test ends: an empty one for the migrations' tests,
// a copy of a migrated template for the services' (prode/platform/testenv).
package testdb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// AdminURL is the test PostgreSQL's superuser URL, PRODE_TEST_PG_ADMIN_URL.
func AdminURL(t testing.TB) *url.URL {
	t.Helper()
	raw := os.Getenv("PRODE_TEST_PG_ADMIN_URL")
	if raw == "" {
		t.Fatal("PRODE_TEST_PG_ADMIN_URL is not set: run the tests with `make test`, which starts a throwaway PostgreSQL, or eval \"$(dev/test-env.sh)\" first")
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("PRODE_TEST_PG_ADMIN_URL: %v", err)
	}
	return u
}

// New creates an empty database named PREFIX_<random> and returns its URL.
func New(t testing.TB, prefix string) string {
	t.Helper()
	return Create(t, AdminURL(t), prefix, "").String()
}

// Create creates a database named PREFIX_<random> on the server of admin, a copy of template
// when one is named, and returns its URL as admin's user.
func Create(t testing.TB, admin *url.URL, prefix, template string) *url.URL {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin.String())
	if err != nil {
		t.Fatalf("connect to test PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	name := prefix + "_" + hex.EncodeToString(b)
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	if _, err := conn.Exec(ctx, create); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, admin.String())
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
	})
	u := *admin
	u.Path = "/" + name
	return &u
}
