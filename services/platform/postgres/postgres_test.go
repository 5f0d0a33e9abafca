package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
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
	} {
		if got := IsUnavailable(err); got != want {
			t.Errorf("%v: %v, want %v", err, got, want)
		}
	}
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
