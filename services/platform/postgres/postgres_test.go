package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"prode/migrations/testdb"
)

func TestIsUnavailableTellsOutagesFromRefusals(t *testing.T) {
	for err, want := range map[error]bool{
		nil:                                      false,
		errors.New("boom"):                       false,
		&pgconn.PgError{Code: "23505"}:           false,
		&pgconn.PgError{Code: "08006"}:           true,
		&pgconn.PgError{Code: "57P01"}:           true,
		fmt.Errorf("q: %w", io.ErrUnexpectedEOF): true, // the server killed mid-reply
		io.EOF:                                   true,
		context.DeadlineExceeded:                 true,
		closedConnError(t):                       true, // a statement on a connection already closed
	} {
		if got := IsUnavailable(err); got != want {
			t.Errorf("%v: %v, want %v", err, got, want)
		}
	}
}

// closedConnError is what pgx returns for a statement on a connection that is closed: here one
// to the test PostgreSQL closed by hand, as the server's going away closes one.
func closedConnError(t *testing.T) error {
	t.Helper()
	conn, err := pgconn.Connect(context.Background(), testdb.AdminURL(t).String())
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(context.Background(), "SELECT 1").ReadAll()
	if err == nil {
		t.Fatal("a statement on a closed connection succeeded")
	}
	return fmt.Errorf("q: %w", err)
}

func TestConnectKeepsTheURLsConnectTimeout(t *testing.T) {
	for url, want := range map[string]time.Duration{
		// Nothing said: fail fast during an outage.
		"postgres://prode_players@127.0.0.1:1/prode": connectTimeout,
		// The chart's PgBouncer clients: a login there waits on no database, only on CPU.
		"postgres://prode_players@127.0.0.1:1/prode?connect_timeout=10": 10 * time.Second,
		"postgres://prode_players@127.0.0.1:1/prode?connect_timeout=1":  time.Second,
	} {
		pool, err := Connect(context.Background(), url, 2)
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if got := pool.Config().ConnConfig.ConnectTimeout; got != want {
			t.Errorf("%s: connect timeout %v, want %v", url, got, want)
		}
		pool.Close()
	}
}

// A login PostgreSQL is slow to answer (a database at its CPU limit) gets connectTimeout, more
// than the dial's 2 s, and then fails as an outage (503).
func TestASlowLoginGetsTheConnectTimeout(t *testing.T) {
	pool, err := Connect(context.Background(), "postgres://prode_players@"+silentServer(t)+"/prode?sslmode=disable", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	start := time.Now()
	err = pool.Ping(context.Background())
	took := time.Since(start)
	if err == nil || !IsUnavailable(err) {
		t.Fatalf("a login never answered: %v, want an outage", err)
	}
	if took < connectTimeout-500*time.Millisecond || took > connectTimeout+2*time.Second {
		t.Errorf("a login never answered failed after %s, want about %s", took, connectTimeout)
	}
}

// silentServer is the address of a server that accepts connections, reads the start-up message
// and never answers it.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, conn) }()
		}
	}()
	return ln.Addr().String()
}
