// Command players signs players in (Google, or the local dev provider), registers them, and
// mints and ends the sessions every service verifies.
package main

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/service"
	"prode/platform/session"
	"prode/players/internal/app"
	playershttp "prode/players/internal/http"
	"prode/players/internal/identity"
	"prode/players/internal/players"
	"prode/players/internal/store"
)

func main() { service.Main("players", run) }

// run reads the service's own configuration, wires the service and serves it until SIGTERM.
func run(log *slog.Logger, env *config.Env, base service.Base) error {
	// Configuration beyond base, read once; Start refuses it with every problem at once, or logs
	// it with secrets masked.
	googleClientID := env.String("GOOGLE_CLIENT_ID", "")
	googleSecret := env.Secret("GOOGLE_CLIENT_SECRET", "")
	devLogin := env.Bool("DEV_LOGIN", false)
	sessionTTL := env.Duration("SESSION_TTL", 14*24*time.Hour) // renewed while in use: players.Service.Renew
	// Sign-ins per client address, renames per player: shared by the replicas in Redis when
	// there is one (REDIS_URL), else per replica (package ratelimit).
	signInLimit := ratelimit.FromEnv(env, "SIGNIN_RATE", "10/min", "SIGNIN_BURST", 10)
	renameLimit := ratelimit.FromEnv(env, "RENAME_RATE", "5/min", "RENAME_BURST", 3)
	redisURL := env.OptionalURL("REDIS_URL")
	redisPassword := env.Secret("REDIS_PASSWORD", "")
	redisPrefix := env.String("REDIS_PREFIX", "prode:")
	secureCookie := env.Bool("COOKIE_SECURE", strings.HasPrefix(strings.Join(base.HTTP.AllowedOrigins, ","), "https://"))
	switch {
	case devLogin && googleClientID != "":
		env.Problem("DEV_LOGIN cannot be on when GOOGLE_CLIENT_ID is set")
	case !devLogin && (googleClientID == "" || googleSecret == ""):
		env.Problem("set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or DEV_LOGIN=true for the local account chooser")
	}
	if redisPassword != "" && redisURL == "" {
		// Else the password would go unused and the limits stay per replica, unnoticed.
		env.Problem("REDIS_PASSWORD is set without REDIS_URL: set REDIS_URL to the Redis it is for, or unset REDIS_PASSWORD")
	}

	// PostgreSQL, and ctx: SIGTERM (Kubernetes) or Ctrl-C ends it.
	ctx, pool, err := service.Start(env, base, log)
	if err != nil {
		return err
	}
	defer pool.Close()

	// The sign-in: the dev chooser, or Google.
	var exchanger players.Exchanger
	var verifier *identity.Verifier
	var dev *playershttp.DevHandlers
	provider := playershttp.Provider{Modo: "google", ClientID: googleClientID}
	if devLogin {
		// Exchanged codes are recorded in PostgreSQL, so each is exchanged once, across replicas.
		devProvider, err := identity.NewDevProvider(base.SessionKey, store.New(pool))
		if err != nil {
			return err
		}
		verifier, err = identity.NewVerifier(ctx, identity.DevAudience, devProvider.Keys().Client())
		if err != nil {
			return err
		}
		exchanger, dev = devProvider, &playershttp.DevHandlers{Provider: devProvider}
		provider = playershttp.Provider{Modo: "dev"}
		log.Warn("dev sign-in is on: the local account chooser stands in for Google")
	} else {
		verifier, err = identity.NewVerifier(ctx, googleClientID, http.DefaultClient)
		if err != nil {
			return err
		}
		exchanger = identity.NewGoogleExchanger(googleClientID, googleSecret, identity.GoogleEndpoint)
	}

	// Stores, service and routes (app.Wire); the rate limits' buckets in Redis, if any.
	server := httpserver.New(base.HTTP, log)
	limits, closeLimits, err := ratelimit.Connect(redisURL, redisPassword, redisPrefix, server.Registry, log)
	if err != nil {
		return err
	}
	defer closeLimits()
	app.Wire(server, app.Deps{
		Pool:         pool,
		Sessions:     session.NewVerifier(base.SessionKey, pool, base.SessionKeyPrevious),
		SessionKey:   base.SessionKey,
		SessionTTL:   sessionTTL,
		Admins:       base.Admins,
		Exchanger:    exchanger,
		Verifier:     verifier,
		Provider:     provider,
		Dev:          dev,
		SecureCookie: secureCookie,
		SignInLimit:  signInLimit,
		RenameLimit:  renameLimit,
		Limits:       limits,
	})

	// Serve until SIGTERM: fail readiness, drain, then stop.
	return server.Run(ctx)
}
