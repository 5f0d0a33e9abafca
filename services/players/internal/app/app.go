// Package app wires the players service: the one composition of store, service and handlers
// that cmd/players serves and the handler tests exercise, so that a test runs what production
// runs. Which sign-in (Google's, or the dev chooser) is main's choice, made from the
// configuration; tests bring their own.
package app

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/httpserver"
	"prode/platform/postgres"
	"prode/platform/ratelimit"
	"prode/platform/session"
	playershttp "prode/players/internal/http"
	"prode/players/internal/players"
	"prode/players/internal/store"
)

// Deps are what the service is made of that main reads from the configuration and tests
// make their own.
type Deps struct {
	Pool       *pgxpool.Pool     // as the service's role (prode_players)
	Sessions   *session.Verifier // verifies the sessions of the signed-in routes
	SessionKey []byte            // signs the sessions this service mints
	SessionTTL time.Duration     // how long a session lives unless renewed
	Admins     session.Admins    // the organisers (ADMIN_EMAILS)

	// The sign-in: an exchanger of the code from the popup and a verifier of the ID token it
	// gives, Google's or the dev provider's, and what the web app is told of it. Dev is the
	// dev chooser's routes; nil unless the dev provider is on.
	Exchanger players.Exchanger
	Verifier  players.Verifier
	Provider  playershttp.Provider
	Dev       *playershttp.DevHandlers

	SecureCookie bool               // the session cookie is Secure (served over TLS)
	SignInLimit  *ratelimit.Limiter // sign-in attempts per client address; nil: none
	RenameLimit  *ratelimit.Limiter // renames per player; nil: none
	Limits       *ratelimit.Shared  // where the replicas share those limits; nil: each its own
}

// Wire mounts the service on server: the readiness check, the business metrics and the
// routes.
func Wire(server *httpserver.Server, d Deps) {
	server.AddCheck("postgres", postgres.Ping(d.Pool))
	d.SignInLimit.Share(d.Limits, "players:signins")
	d.RenameLimit.Share(d.Limits, "players:renames")
	var renames players.Limiter // a nil *ratelimit.Limiter in it would not be a nil interface
	if d.RenameLimit != nil {
		renames = d.RenameLimit
	}
	svc := players.New(d.Exchanger, d.Verifier, store.New(d.Pool), d.SessionKey, d.SessionTTL, d.Admins, renames)
	playershttp.Routes(server.Engine, d.Sessions,
		&playershttp.SessionHandlers{Service: svc, Provider: d.Provider, SecureCookie: d.SecureCookie,
			SignIns: playershttp.NewMetrics(server.Registry).SignIns, SignInLimit: d.SignInLimit},
		&playershttp.PlayerHandlers{Service: svc}, d.Dev)
}
