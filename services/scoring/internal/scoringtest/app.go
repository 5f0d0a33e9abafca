package scoringtest

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"prode/platform/cache"
	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/platform/testenv"
	"prode/scoring/internal/app"
	"prode/scoring/internal/scoring"
)

// Options are the service's settings a test sets; those it leaves zero are: criterio noventa,
// a poll every minute (so that tests see NOTIFY at work), scoring.DefaultMatchesPerTransaction,
// nothing kept in the process (so that tests see every read reach Redis), the leagues' default
// maximums and no limits.
type Options = app.Settings

// App is the scoring service wired by app.Wire, as cmd/scoring wires it, connected as
// prode_scoring. Nothing runs in the background until a test starts it (Go(t, app.Run), or a
// part: Go(t, app.Consumer.Run)).
type App struct {
	*app.App
	env    *Env
	Server *httpserver.Server
	API    *testenv.API
	Pool   *pgxpool.Pool
	Redis  *redis.Client
	Prefix string
}

// Logger writes warnings and errors to the test's output.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// NewApp wires the service on the test Redis, its keys under a prefix of the test's own.
func (e *Env) NewApp(opts Options) *App {
	e.t.Helper()
	redisURL, prefix := testenv.Redis(e.t)
	return e.NewAppOn(redisURL, prefix, opts)
}

// NewAppOn wires the service on the Redis at redisURL, its keys under prefix (another App's
// Prefix, to share them).
func (e *Env) NewAppOn(redisURL, prefix string, opts Options) *App {
	t := e.t
	t.Helper()
	if opts.Criterio == "" {
		opts.Criterio = scoring.Noventa
	}
	if opts.Poll == 0 {
		opts.Poll = time.Minute
	}
	if opts.MatchesPerTransaction == 0 {
		opts.MatchesPerTransaction = scoring.DefaultMatchesPerTransaction
	}
	log := Logger(t)
	pool := e.DB.Pool(t, "scoring")
	rdb, err := cache.Connect(redisURL, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rdb.Close() })
	server := httpserver.New(httpserver.Config{Service: "scoring"}, log)
	a, err := app.Wire(server, app.Deps{
		Pool: pool, DatabaseURL: e.DB.URL("scoring"), Redis: rdb, RedisPrefix: prefix,
		Sessions: session.NewVerifier(testenv.SessionKey, pool), Zone: mustZone(t), Log: log,
		Settings: opts,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &App{App: a, env: e, Server: server, API: testenv.NewAPI(t, server.Engine), Pool: pool, Redis: rdb,
		Prefix: prefix}
}

func mustZone(t testing.TB) *time.Location {
	zone, err := time.LoadLocation("America/Argentina/Buenos_Aires")
	if err != nil {
		t.Fatal(err)
	}
	return zone
}

// Go runs f (the consumer, the repair loop) until the returned stop is called or the test
// ends; stop waits for f to return.
func Go(t testing.TB, f func(ctx context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { f(ctx) })
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// Score applies every outbox event not applied yet, as the consumer's pass does
// (Scoring.ProcessPending); an error fails the test.
func (a *App) Score(t testing.TB) {
	t.Helper()
	if _, err := a.Scoring.ProcessPending(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Metric reads a counter or gauge of the service's registry (0 when absent); labels are
// name, value pairs.
func (a *App) Metric(t testing.TB, name string, labels ...string) float64 {
	t.Helper()
	families, err := a.Server.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metrics:
		for _, m := range f.GetMetric() {
			for i := 0; i+1 < len(labels); i += 2 {
				found := false
				for _, l := range m.GetLabel() {
					if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
						found = true
					}
				}
				if !found {
					continue metrics
				}
			}
			switch {
			case m.GetCounter() != nil:
				return m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				return m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				return float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return 0
}

// Eventually retries check every 20 ms until it returns ""; past within, the test fails with
// the last message.
func Eventually(t testing.TB, within time.Duration, check func() string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		msg := check()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
