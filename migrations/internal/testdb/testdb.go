// Package testdb gives the migrations' tests an empty database of their own on the real
// PostgreSQL that `make test` starts (dev/test-env.sh), dropped when the test ends.
package testdb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// New creates an empty database named PREFIX_<random> and returns its URL.
func New(t *testing.T, prefix string) string {
	t.Helper()
	raw := os.Getenv("PRODE_TEST_PG_ADMIN_URL")
	if raw == "" {
		t.Fatal("PRODE_TEST_PG_ADMIN_URL is not set: run the tests with `make test`, or eval \"$(dev/test-env.sh)\" first")
	}
	admin, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, raw)
	if err != nil {
		t.Fatalf("connect to test PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	name := prefix + "_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(context.Background(), raw)
		if err != nil {
			return
		}
		defer conn.Close(context.Background())
		_, _ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u := *admin
	u.Path = "/" + name
	return u.String()
}
