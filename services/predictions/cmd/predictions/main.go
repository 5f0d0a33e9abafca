// Command predictions stores the players' score predictions and enforces the cut-off with
// the database clock.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/postgres"
	"prode/platform/ratelimit"
	"prode/platform/service"
	"prode/platform/session"
	"prode/predictions/internal/app"
	"prode/predictions/internal/reveal"
)

func main() {
	log := service.Logger("predictions")
	if err := run(log); err != nil {
		log.Error("predictions stopped", slog.String("error", err.Error()))
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	// Configuration, read once and validated.
	env := config.FromOS()
	base := service.ReadBase(env, "predictions")
	writeRate := env.Rate("WRITE_RATE", "5/s")
	writeBurst := env.Int("WRITE_BURST", 20, 1, 10000)
	if err := env.Err(); err != nil {
		return err
	}
	env.Log(log)
	service.TuneRuntime(log) // GOGC and GOMEMLIMIT defaults for a small heap in a container

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	// Wiring.
	pool, err := postgres.Connect(ctx, base.DatabaseURL, int32(base.DBMaxConns))
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer pool.Close()
	server := httpserver.New(base.HTTP, log)
	app.Wire(server, app.Deps{
		Pool:       pool,
		Sessions:   session.NewVerifier(base.SessionKey, pool, base.SessionKeyPrevious),
		WriteLimit: ratelimit.New(writeRate, writeBurst),
		LockingFor: reveal.LockingFor,
	})

	// Serve until SIGTERM, then drain.
	return server.Run(ctx)
}
