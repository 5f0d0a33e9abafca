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
	"prode/scoring/internal/live"
	"prode/scoring/internal/matchpoints"
	"prode/scoring/internal/results"
	"prode/scoring/internal/scoring"
	"prode/scoring/internal/standings"
	"prode/scoring/internal/store"
)

const (
	// cacheRepairInterval is how often Redis's standings versions are checked against PostgreSQL's.
	cacheRepairInterval = 5 * time.Second
	// watchInterval is how often sign-ups and the current tournament are looked for: a player
	// who signs up is on every standings page within it plus LocalFreshFor.
	watchInterval = 500 * time.Millisecond
)

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
	maxStreams := env.Int("LIVE_MAX_STREAMS", live.DefaultMaxStreams, 1, 1_000_000)
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
	standingsStore := store.NewStandingsStore(pool)
	var standingsService *standings.Service // the hub tells it of versions other replicas publish
	hub := live.New(rdb, redisPrefix, latestVersions(standingsStore), server.Registry, log, live.Options{MaxStreams: maxStreams,
		OnEvent: func(e live.Event) { standingsService.Moved(e.Torneo, e.ID) }})
	standingsService = standings.New(standingsStore, standings.NewCache(rdb, redisPrefix), standings.LocalFreshFor,
		base.Zone, announcer{hub: hub, log: log}, server.Registry, log)
	scoringService := scoring.New(store.NewPointsStore(pool, base.Zone), standingsService, criterio, matchesPerTransaction,
		scoring.NewMetrics(server.Registry), log)
	consumer, err := scoring.NewConsumer(base.DatabaseURL, scoringService, poll, log)
	if err != nil {
		return fmt.Errorf("consumer: %w", err)
	}
	sessions := session.NewVerifier(base.SessionKey, pool, base.SessionKeyPrevious)
	scoringhttp.Routes(server.Engine, sessions,
		&scoringhttp.StandingsHandlers{Service: standingsService},
		&scoringhttp.ResultsHandlers{Service: results.New(store.NewResultsStore(pool), base.Zone), Tournaments: standingsService},
		&scoringhttp.EventsHandlers{Hub: hub})
	scoringhttp.MatchPointsRoutes(server.Engine, sessions,
		&scoringhttp.MatchPointsHandlers{Service: matchpoints.New(store.NewMatchPointsStore(pool), matchpoints.FreshFor)})

	// Background work: every tournament's table built once, the outbox consumer (which first
	// rescores everything if the knock-out setting changed), the watch for sign-ups and the
	// current tournament, and the cache repair loop. They outlive the HTTP drain and stop after it.
	workCtx, stopWork := context.WithCancel(context.Background())
	var work sync.WaitGroup
	work.Go(func() {
		if err := standingsService.BuildAll(workCtx); err != nil && workCtx.Err() == nil {
			log.Warn("standings not built at start; built when first read", slog.String("error", err.Error()))
		}
	})
	work.Go(func() { consumer.Run(workCtx) })
	work.Go(func() { standingsService.Watch(workCtx, watchInterval) })
	work.Go(func() { standingsService.Repair(workCtx, cacheRepairInterval) })
	work.Go(func() { hub.Run(workCtx) }) // returns once stopWork: it closes the event streams

	// Serve until SIGTERM, then drain; then stop the background work.
	err = server.Run(ctx)
	stopWork()
	work.Wait()
	return err
}

// announcer tells the live hub of each standings version this process publishes.
type announcer struct {
	hub *live.Hub
	log *slog.Logger
}

func (a announcer) Announce(ctx context.Context, torneo, version int64) {
	if err := a.hub.Announce(ctx, live.Event{ID: version, Torneo: torneo}); err != nil {
		a.log.Warn("live: the other replicas will read this version from PostgreSQL (Redis publish failed)",
			slog.Int64("version", version), slog.String("error", err.Error()))
	}
}

// latestVersions is the hub's poll: each tournament's newest standings version.
func latestVersions(st *store.StandingsStore) live.LatestFunc {
	return func(ctx context.Context) ([]live.Event, error) {
		tablas, err := st.Latest(ctx)
		events := make([]live.Event, len(tablas))
		for i, t := range tablas {
			events[i] = live.Event{ID: t.ID, Torneo: t.Torneo}
		}
		return events, err
	}
}
