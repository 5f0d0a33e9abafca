// Command players signs players in (Google, or the local dev provider), registers them, and
// mints and ends the sessions every service verifies.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/postgres"
	"prode/platform/ratelimit"
	"prode/platform/service"
	"prode/platform/session"
	"prode/players/internal/app"
	playershttp "prode/players/internal/http"
	"prode/players/internal/identity"
	"prode/players/internal/players"
	"prode/players/internal/store"
)

func main() {
	log := service.Logger("players")
	if err := run(log); err != nil {
		log.Error("players stopped", slog.String("error", err.Error()))
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	// Configuration, read once and validated.
	env := config.FromOS()
	base := service.ReadBase(env, "players")
	googleClientID := env.String("GOOGLE_CLIENT_ID", "")
	googleSecret := env.Secret("GOOGLE_CLIENT_SECRET", "")
	devLogin := env.Bool("DEV_LOGIN", false)
	sessionTTL := env.Duration("SESSION_TTL", 14*24*time.Hour) // renewed while in use: players.Service.Renew
	signInRate := env.Rate("SIGNIN_RATE", "10/min")
	signInBurst := env.Int("SIGNIN_BURST", 10, 1, 10000)
	renameRate := env.Rate("RENAME_RATE", "5/min")
	renameBurst := env.Int("RENAME_BURST", 3, 1, 10000)
	secureCookie := env.Bool("COOKIE_SECURE", strings.HasPrefix(strings.Join(base.HTTP.AllowedOrigins, ","), "https://"))
	switch {
	case devLogin && googleClientID != "":
		env.Problem("DEV_LOGIN cannot be on when GOOGLE_CLIENT_ID is set")
	case !devLogin && (googleClientID == "" || googleSecret == ""):
		env.Problem("set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or DEV_LOGIN=true for the local account chooser")
	}
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

	// Stores, service and routes (app.Wire).
	server := httpserver.New(base.HTTP, log)
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
		// Per client address and per player, in this process: with N replicas up to N times these.
		SignInLimit: ratelimit.New(signInRate, signInBurst),
		RenameLimit: ratelimit.New(renameRate, renameBurst),
	})

	// Serve until SIGTERM, then drain.
	return server.Run(ctx)
}
