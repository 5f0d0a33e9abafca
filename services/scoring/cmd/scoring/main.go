// Command scoring turns results into points and standings: it consumes fixtures' outbox
// (NOTIFY plus polling), scores each match set-based and idempotently, caches the standings in
// Redis by version, and serves /api/posiciones and /api/resultados.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"prode/platform/cache"
	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/postgres"
	"prode/platform/service"
	"prode/platform/session"
	scoringhttp "prode/scoring/internal/http"
	"prode/scoring/internal/results"
	"prode/scoring/internal/scoring"
	"prode/scoring/internal/standings"
	"prode/scoring/internal/store"
)

// cacheRepairInterval is how often Redis's standings version is checked against PostgreSQL's.
const cacheRepairInterval = 5 * time.Second

func main() {
	log := service.Logger("scoring")
	if err := run(log); err != nil {
		log.Error("scoring stopped", slog.String("error", err.Error()))
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	// Configuration, read once and validated.
	env := config.FromOS()
	base := service.ReadBase(env, "scoring")
	redisURL := env.URL("REDIS_URL")
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
	if err := env.Err(); err != nil {
		return err
	}
	env.Log(log)
	service.TuneRuntime(log) // GOGC and GOMEMLIMIT defaults for a small heap in a container

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	// PostgreSQL and Redis.
	pool, err := postgres.Connect(ctx, base.DatabaseURL, int32(base.DBMaxConns))
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer pool.Close()
	cache.UseLogger(log)
	rdb, err := cache.Connect(redisURL)
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	defer rdb.Close()

	// Wiring.
	server := httpserver.New(base.HTTP, log)
	server.AddCheck("postgres", postgres.Ping(pool))
	server.AddCheck("redis", func(ctx context.Context) error { return rdb.Ping(ctx).Err() })
	standingsService := standings.New(store.NewStandingsStore(pool), standings.NewCache(rdb, redisPrefix), standings.LocalFreshFor, server.Registry, log)
	scoringService := scoring.New(store.NewPointsStore(pool), standingsService, criterio, matchesPerTransaction,
		scoring.NewMetrics(server.Registry), log)
	consumer, err := scoring.NewConsumer(base.DatabaseURL, scoringService, poll, log)
	if err != nil {
		return fmt.Errorf("consumer: %w", err)
	}
	scoringhttp.Routes(server.Engine, session.NewVerifier(base.SessionKey, pool, base.SessionKeyPrevious),
		&scoringhttp.StandingsHandlers{Service: standingsService},
		&scoringhttp.ResultsHandlers{Service: results.New(store.NewResultsStore(pool), base.Zone)})

	// Background work: the outbox consumer (which first rescores everything if the knock-out
	// setting changed) and the cache repair loop. They outlive the HTTP drain and stop after it.
	workCtx, stopWork := context.WithCancel(context.Background())
	var work sync.WaitGroup
	work.Go(func() { consumer.Run(workCtx) })
	work.Go(func() { standingsService.Repair(workCtx, cacheRepairInterval) })

	// Serve until SIGTERM, then drain; then stop the background work.
	err = server.Run(ctx)
	stopWork()
	work.Wait()
	return err
}
