package service

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/config"
	"prode/platform/postgres"
)

// Main runs the service name: it reads the settings every service has (base) from the
// environment and calls run, which reads the service's own from env, starts it (Start) and
// serves. An error run returns is logged and ends the process with status 1.
func Main(name string, run func(log *slog.Logger, env *config.Env, base Base) error) {
	log := Logger(name)
	env := config.FromOS()
	if err := run(log, env, ReadBase(env, name)); err != nil {
		log.Error("stopped", slog.String("error", err.Error()))
		os.Exit(1)
	}
}

// Start ends a service's configuration and starts the service: it refuses the configuration
// read from env with every problem at once, or logs it (secrets masked) and sets the runtime's
// defaults (TuneRuntime). Then it opens the PostgreSQL pool, which connects lazily, so that the
// service starts during an outage and answers 503 until the database is back; the caller
// closes it. ctx ends on SIGTERM (Kubernetes) or Ctrl-C, which starts the graceful shutdown.
func Start(env *config.Env, base Base, log *slog.Logger) (ctx context.Context, pool *pgxpool.Pool, err error) {
	if err := env.Err(); err != nil {
		return nil, nil, err
	}
	env.Log(log)
	TuneRuntime(log) // GOGC and GOMEMLIMIT defaults for a small heap in a container

	// The pool outlives ctx: it serves the drain that follows SIGTERM.
	pool, err = postgres.Connect(context.Background(), base.DatabaseURL, int32(base.DBMaxConns))
	if err != nil {
		return nil, nil, fmt.Errorf("database: %w", err)
	}
	// Never stopped: a second SIGTERM or Ctrl-C during the drain must not kill the process
	// before its grace period, and the process ends when the service returns.
	ctx, _ = signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	return ctx, pool, nil
}
