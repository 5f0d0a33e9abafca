// Package app wires the predictions service: the one composition of stores, services and
// handlers that cmd/predictions serves and the handler tests exercise, so that a test runs
// what production runs.
package app

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/httpserver"
	"prode/platform/postgres"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/predictions/internal/bonus"
	predictionshttp "prode/predictions/internal/http"
	"prode/predictions/internal/predictions"
	"prode/predictions/internal/reveal"
	"prode/predictions/internal/store"
)

// Deps are what the service is made of that main reads from the configuration and tests
// make their own.
type Deps struct {
	Pool     *pgxpool.Pool     // as the service's role (prode_predictions)
	Sessions *session.Verifier // verifies the players' sessions
	// WriteLimit limits each session's writes (POST, PUT); nil: none. Per process, unlike
	// players' and scoring's limits (shared in Redis): it bounds a session's load, which N times
	// it with N replicas still does, and sharing it would add a Redis round trip, and Redis's CPU
	// on the same cores, to every save of the match-day rush (docs/reliability.md).
	WriteLimit *ratelimit.Limiter
	// LockingFor keeps a locking match's distribution of predictions (reveal.LockingFor in
	// production; 0 keeps none, so that every write shows at once).
	LockingFor time.Duration
}

// Wire mounts the service on server: the readiness check, the business metrics and the
// routes.
func Wire(server *httpserver.Server, d Deps) {
	server.AddCheck("postgres", postgres.Ping(d.Pool))
	st := store.New(d.Pool)
	predictionshttp.Routes(server.Engine, d.Sessions, &predictionshttp.PredictionHandlers{
		Service:    predictions.New(store.NewBatched(st, predictionshttp.NewSaveBatchRows(server.Registry)), d.Sessions),
		Metrics:    predictionshttp.NewMetrics(server.Registry),
		WriteLimit: d.WriteLimit,
	})
	predictionshttp.AnswerRoutes(server.Engine, d.Sessions, &predictionshttp.AnswerHandlers{
		Service:    bonus.New(st, d.Sessions),
		Metrics:    predictionshttp.NewAnswerMetrics(server.Registry),
		WriteLimit: d.WriteLimit,
	})
	predictionshttp.MatchRoutes(server.Engine, d.Sessions,
		&predictionshttp.MatchPredictionsHandlers{Service: reveal.New(st, reveal.KeptFor, d.LockingFor)})
}
