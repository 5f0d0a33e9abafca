// Package app wires the scoring service: the one composition of stores, services, the live
// hub, the outbox consumer and the handlers that cmd/scoring runs and the tests (scoringtest)
// exercise, so that a test runs what production runs.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"prode/platform/events"
	"prode/platform/httpserver"
	"prode/platform/postgres"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/scoring/internal/grupos"
	scoringhttp "prode/scoring/internal/http"
	"prode/scoring/internal/live"
	"prode/scoring/internal/matchpoints"
	"prode/scoring/internal/metrics"
	"prode/scoring/internal/results"
	"prode/scoring/internal/scoring"
	"prode/scoring/internal/standings"
	"prode/scoring/internal/store"
	"prode/scoring/internal/tablero"
)

const (
	// cacheRepairInterval is how often Redis's standings versions are checked against PostgreSQL's.
	cacheRepairInterval = 5 * time.Second
	// watchInterval is how often sign-ups and the current tournament are looked for: a player
	// who signs up is on every standings page within it plus standings.LocalFreshFor.
	watchInterval = 500 * time.Millisecond
)

// Deps are what the service is made of that main reads from the configuration and tests
// make their own.
type Deps struct {
	Pool        *pgxpool.Pool // as the service's role (prode_scoring)
	DatabaseURL string        // the same database, for the outbox consumer's own connection (LISTEN)
	Redis       *redis.Client
	RedisPrefix string // the keys and channel of this deployment
	Sessions    *session.Verifier
	Zone        *time.Location // the tournament's display time zone (matchdays, fecha and hora)
	Log         *slog.Logger
	Settings
}

// Settings tune the service: main reads them from the configuration, and a test sets those it
// tests (scoringtest.Options).
type Settings struct {
	Criterio              scoring.Criterio // which score of a knock-out match counts
	MatchesPerTransaction int              // how many matches one scoring transaction takes
	Poll                  time.Duration    // how often the consumer reads the outbox besides NOTIFY
	Live                  live.Options     // the event streams (OnEvent is the wiring's own)
	// LocalFreshFor keeps standings pages in the process (standings.LocalFreshFor in
	// production; 0 keeps none). MatchPointsFreshFor likewise keeps a match's points counts
	// (matchpoints.FreshFor in production).
	LocalFreshFor       time.Duration
	MatchPointsFreshFor time.Duration
	// Grupos are the leagues' maximums (GRUPOS_MAX_POR_JUGADOR, GRUPOS_MAX_MIEMBROS; zero:
	// grupos.DefaultLimites). WriteLimit limits each session's writes of leagues and pins (WRITE_RATE,
	// WRITE_BURST) and GuessLimit its joins with an unknown code; nil: none. The replicas share
	// them in Redis (package ratelimit).
	Grupos     store.Limites
	WriteLimit *ratelimit.Limiter
	GuessLimit *ratelimit.Limiter
}

// App is the wired service: its parts that run in the background, and what tests look into.
type App struct {
	Standings *standings.Service
	Cache     *standings.Cache
	Scoring   *scoring.Service
	Consumer  *scoring.Consumer
	Hub       *live.Hub
	log       *slog.Logger
}

// Wire mounts the service on server: the readiness checks, the business metrics and the
// routes. Run does its background work.
func Wire(server *httpserver.Server, d Deps) (*App, error) {
	server.AddCheck("postgres", postgres.Ping(d.Pool))
	server.AddCheck("redis", func(ctx context.Context) error { return d.Redis.Ping(ctx).Err() })
	m := metrics.New(server.Registry)
	a := &App{Cache: standings.NewCache(d.Redis, d.RedisPrefix), log: d.Log}
	limits := ratelimit.NewShared(d.Redis, d.RedisPrefix, server.Registry, d.Log)
	d.WriteLimit.Share(limits, "scoring:writes")
	d.GuessLimit.Share(limits, "scoring:guesses")
	standingsStore := store.NewStandingsStore(d.Pool, store.NewSnapshots(store.KeptSnapshots))
	// The hub tells the standings of versions other replicas publish; the standings tell the
	// hub of the ones this replica publishes.
	opts := d.Live
	opts.OnEvent = func(e live.Event) { a.Standings.Moved(e.Torneo, e.ID) }
	a.Hub = live.New(d.Redis, d.RedisPrefix, latestVersions(standingsStore), &m.Live, d.Log, opts)
	a.Standings = standings.New(standingsStore, a.Cache, d.LocalFreshFor, d.Zone, announcer{hub: a.Hub, log: d.Log},
		&m.Standings, d.Log)
	a.Scoring = scoring.New(store.NewPointsStore(d.Pool, d.Zone), a.Standings, d.Criterio, d.MatchesPerTransaction,
		&m.Scoring, d.Log)
	consumer, err := scoring.NewConsumer(d.DatabaseURL, a.Scoring, d.Poll, d.Log)
	if err != nil {
		return nil, fmt.Errorf("consumer: %w", err)
	}
	a.Consumer = consumer
	scoringhttp.Routes(server.Engine, d.Sessions,
		&scoringhttp.StandingsHandlers{Service: a.Standings},
		&scoringhttp.ResultsHandlers{Service: results.New(store.NewResultsStore(d.Pool), d.Zone), Tournaments: a.Standings},
		&scoringhttp.EventsHandlers{Hub: a.Hub})
	limites := d.Grupos
	if limites == (store.Limites{}) {
		limites = grupos.DefaultLimites
	}
	gruposStore := store.NewGruposStore(d.Pool, standingsStore)
	leagues := grupos.New(gruposStore, a.Cache, a.Standings, limites, &m.Grupos, d.Log)
	consumer.Subscribe(events.AccessChannel, leagues.AccessCache())
	scoringhttp.GruposRoutes(server.Engine, d.Sessions, &scoringhttp.GruposHandlers{
		Service:     leagues,
		Tournaments: a.Standings,
		WriteLimit:  d.WriteLimit,
		Guesses:     d.GuessLimit,
	})
	scoringhttp.TableroRoutes(server.Engine, d.Sessions, &scoringhttp.TableroHandlers{
		Service: tablero.New(a.Standings, leagues, standingsStore, gruposStore, store.NewPinsStore(d.Pool),
			d.Zone, &m.Tablero),
		Tournaments: a.Standings,
		WriteLimit:  d.WriteLimit,
	})
	scoringhttp.MatchPointsRoutes(server.Engine, d.Sessions,
		&scoringhttp.MatchPointsHandlers{Service: matchpoints.New(store.NewMatchPointsStore(d.Pool), d.MatchPointsFreshFor)})
	return a, nil
}

// Run does the background work until ctx ends, and returns once all of it stopped: every
// tournament's table built once, the outbox consumer (which first rescores everything if the
// knock-out setting changed), the watch for sign-ups and the current tournament, the cache
// repair loop and the live hub (which closes the event streams when it stops).
func (a *App) Run(ctx context.Context) {
	var work sync.WaitGroup
	work.Go(func() {
		if err := a.Standings.BuildAll(ctx); err != nil && ctx.Err() == nil {
			a.log.Warn("standings not built at start; built when first read", slog.String("error", err.Error()))
		}
	})
	work.Go(func() { a.Consumer.Run(ctx) })
	work.Go(func() { a.Standings.Watch(ctx, watchInterval) })
	work.Go(func() { a.Standings.Repair(ctx, cacheRepairInterval) })
	work.Go(func() { a.Hub.Run(ctx) })
	work.Wait()
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
