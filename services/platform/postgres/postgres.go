// Package postgres opens a service's connection pool and tells outages from other errors,
// so that handlers answer 503 with Retry-After while PostgreSQL is away.
package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// When the URL names no connect_timeout, reaching PostgreSQL's port is bounded by dialTimeout and
// the whole login (start-up and SCRAM authentication included) by connectTimeout. The dial fails
// fast during an outage: a request gets its 503 within about two seconds even when PostgreSQL's
// host is gone (and dialGate keeps requests from queueing behind such dials), and a stopped
// server or a Service without endpoints refuses at once. The login has more room, because a
// slow login means a busy database, not a missing one:
//   - at 1 s for both, the cluster test's new pods timed out against a PostgreSQL held at its CPU
//     limit by 150 concurrent requests, and 7,880 of 64,662 requests answered 503;
//   - at 2 s for both, 2 of 190,536 requests still did, on a slower machine ("failed SASL auth:
//     timeout").
//
// A URL's own connect_timeout is the operator's choice and is kept: the chart gives PgBouncer's
// clients a longer one (prode.databaseEnv says why).
const (
	dialTimeout    = 2 * time.Second
	connectTimeout = 5 * time.Second
)

// Connect builds a pool without connecting yet: a service starts (and reports the outage on
// /readyz?verbose) even while PostgreSQL is down.
func Connect(ctx context.Context, url string, maxConns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
		cfg.ConnConfig.DialFunc = (&net.Dialer{Timeout: dialTimeout}).DialContext
	}
	// Also how late an idle connection past pool_max_conn_lifetime is closed: the chart's
	// PgBouncer drain (prode.pgbouncerDrainSeconds) counts these 5 s.
	cfg.HealthCheckPeriod = 5 * time.Second
	cfg.ConnConfig.DialFunc = newDialGate(cfg.ConnConfig.DialFunc).DialContext
	return pgxpool.NewWithConfig(ctx, cfg)
}

// Ping is a dependency check for /readyz?verbose.
func Ping(pool *pgxpool.Pool) func(context.Context) error {
	return func(ctx context.Context) error { return pool.Ping(ctx) }
}

// IsUnavailable reports whether err means PostgreSQL could not be reached or went away,
// as opposed to a query the database refused.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &connectErr), errors.As(err, &netErr), pgconn.Timeout(err):
		return true
	case errors.As(err, &pgErr):
		// Class 08: connection exception; 57P0x: the server is shutting down or starting.
		return pgErr.Code[:2] == "08" || pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
	case errors.Is(err, context.DeadlineExceeded):
		return true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		// The server went away in the middle of a reply (killed, failed over): pgx reports the
		// cut connection as a bare EOF, not a net.Error. Found by TestPostgresOutage.
		return true
	case errors.Is(err, pgconn.ErrConnClosed):
		// A statement on a connection the server's going away had already closed (the next one
		// of a transaction, or a connection the pool handed out just then): nothing was sent.
		// Found by fixtures' TestPostgresOutage as a 500 in one run of many.
		return true
	}
	return false
}

// IsUniqueViolation reports a unique constraint violation (SQLSTATE 23505).
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}
