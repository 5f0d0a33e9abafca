// Command predictions stores the players' score predictions and enforces the cut-off with
// the database clock.
package main

import (
	"log/slog"

	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/service"
	"prode/platform/session"
	"prode/predictions/internal/app"
	"prode/predictions/internal/reveal"
)

func main() { service.Main("predictions", run) }

// run reads the service's own configuration, wires the service and serves it until SIGTERM.
func run(log *slog.Logger, env *config.Env, base service.Base) error {
	// Configuration beyond base, read once; Start refuses it with every problem at once, or logs
	// it with secrets masked.
	writeLimit := ratelimit.FromEnv(env, "WRITE_RATE", "5/s", "WRITE_BURST", 20)

	// PostgreSQL, and ctx: SIGTERM (Kubernetes) or Ctrl-C ends it.
	ctx, pool, err := service.Start(env, base, log)
	if err != nil {
		return err
	}
	defer pool.Close()

	// Wiring: stores, services and routes (app.Wire).
	server := httpserver.New(base.HTTP, log)
	app.Wire(server, app.Deps{
		Pool:       pool,
		Sessions:   session.NewVerifier(base.SessionKey, pool, base.SessionKeyPrevious),
		WriteLimit: writeLimit,
		LockingFor: reveal.LockingFor,
	})

	// Serve until SIGTERM: fail readiness, drain, then stop.
	return server.Run(ctx)
}
