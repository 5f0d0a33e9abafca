// Command scoring turns results into points and standings: it consumes fixtures' outbox
// (NOTIFY plus polling), scores each match set-based and idempotently, caches the standings in
// Redis by version, and serves /api/posiciones, /api/resultados and the leagues (/api/grupos).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"prode/platform/cache"
	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/service"
	"prode/platform/session"
	"prode/scoring/internal/app"
	"prode/scoring/internal/grupos"
	"prode/scoring/internal/live"
	"prode/scoring/internal/matchpoints"
	"prode/scoring/internal/scoring"
	"prode/scoring/internal/standings"
	"prode/scoring/internal/store"
)

func main() { service.Main("scoring", run) }

// run reads the service's own configuration, wires the service and serves it until SIGTERM.
func run(log *slog.Logger, env *config.Env, base service.Base) error {
	// Configuration beyond base, read once; Start refuses it with every problem at once, or logs
	// it with secrets masked.
	redisURL := env.URL("REDIS_URL")
	redisPassword := env.Secret("REDIS_PASSWORD", "")
	redisPrefix := env.String("REDIS_PREFIX", "prode:")
	criterio, err := scoring.ParseCriterio(env.String("SCORING_KNOCKOUT", string(scoring.Noventa)))
	if err != nil {
		env.Problem("SCORING_KNOCKOUT %v", err)
	}
	matchesPerTransaction := env.Int("SCORING_MATCHES_PER_TRANSACTION", scoring.DefaultMatchesPerTransaction, 1, 1000)
	poll := env.Duration("POLL_INTERVAL", 2*time.Second)
	if poll <= 0 {
		env.Problem("POLL_INTERVAL must be positive")
	}
	maxStreams := env.Int("LIVE_MAX_STREAMS", live.DefaultMaxStreams, 1, 1_000_000)
	limites := store.Limites{
		PorJugador: int64(env.Int("GRUPOS_MAX_POR_JUGADOR", int(grupos.DefaultLimites.PorJugador), 1, 10_000)),
		Miembros:   int64(env.Int("GRUPOS_MAX_MIEMBROS", int(grupos.DefaultLimites.Miembros), 1, 1_000_000)),
	}
	writeLimit := ratelimit.FromEnv(env, "WRITE_RATE", "5/s", "WRITE_BURST", 20)

	// PostgreSQL, and ctx: SIGTERM (Kubernetes) or Ctrl-C ends it. Then Redis.
	ctx, pool, err := service.Start(env, base, log)
	if err != nil {
		return err
	}
	defer pool.Close()
	cache.UseLogger(log)
	rdb, err := cache.Connect(redisURL, redisPassword)
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	defer rdb.Close()

	// Wiring: stores, services, the live hub, the outbox consumer and the routes (app.Wire).
	server := httpserver.New(base.HTTP, log)
	a, err := app.Wire(server, app.Deps{
		Pool:        pool,
		DatabaseURL: base.DatabaseURL,
		Redis:       rdb,
		RedisPrefix: redisPrefix,
		Sessions:    session.NewVerifier(base.SessionKey, pool, base.SessionKeyPrevious),
		Zone:        base.Zone,
		Log:         log,
		Settings: app.Settings{
			Criterio:              criterio,
			MatchesPerTransaction: matchesPerTransaction,
			Poll:                  poll,
			Live:                  live.Options{MaxStreams: maxStreams},
			LocalFreshFor:         standings.LocalFreshFor,
			MatchPointsFreshFor:   matchpoints.FreshFor,
			Grupos:                limites,
			WriteLimit:            writeLimit,
			GuessLimit:            ratelimit.New(grupos.GuessesPerHour/3600.0, grupos.GuessBurst),
		},
	})
	if err != nil {
		return err
	}

	// Background work (app.Run) outlives the HTTP drain and stops after it.
	workCtx, stopWork := context.WithCancel(context.Background())
	work := make(chan struct{})
	go func() {
		defer close(work)
		a.Run(workCtx)
	}()

	// Serve until SIGTERM: fail readiness, drain, then stop; then stop the background work.
	err = server.Run(ctx)
	stopWork()
	<-work
	return err
}
