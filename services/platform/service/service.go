// Package service reads the settings every service shares, builds its logger and starts it
// (Main, Start), so that each main.go reads top to bottom: config, wiring, serve, shutdown.
package service

import (
	"log/slog"
	"net/mail"
	"os"
	"strings"
	"time"

	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/session"
)

// Base is the configuration every service has.
type Base struct {
	HTTP        httpserver.Config
	DatabaseURL string
	DBMaxConns  int
	// SessionKey signs new sessions and verifies them; SessionKeyPrevious (nil when unset)
	// only verifies, so that SESSION_KEY can be rotated without signing everyone out: pass
	// both to session.NewVerifier.
	SessionKey         []byte
	SessionKeyPrevious []byte
	// Admins are the organisers (ADMIN_EMAILS), for session.Verifier.WithAdmins and the
	// players service's answers: every service that has organiser routes decides from them.
	Admins session.Admins
	Zone   *time.Location
}

// ReadBase reads the shared settings from env.
func ReadBase(env *config.Env, name string) Base {
	return Base{
		HTTP: httpserver.Config{
			Service:         name,
			HTTPAddr:        env.String("HTTP_ADDR", ":8080"),
			AdminAddr:       env.String("ADMIN_ADDR", ":9090"),
			AllowedOrigins:  env.List("PUBLIC_ORIGIN"),
			DrainDelay:      env.Duration("DRAIN_DELAY", 0),
			ShutdownTimeout: env.Duration("SHUTDOWN_TIMEOUT", 20*time.Second),
			// The ingress (or the local nginx) in front: see httpserver.Config.
			TrustedProxyHops: env.Int("TRUSTED_PROXY_HOPS", 1, 0, 10),
			Profiling:        env.Bool("PPROF", false),
		},
		DatabaseURL:        env.URL("DATABASE_URL"),
		DBMaxConns:         env.Int("DB_MAX_CONNS", 20, 1, 500),
		SessionKey:         env.Key("SESSION_KEY", 32),
		SessionKeyPrevious: optionalKey(env, "SESSION_KEY_PREVIOUS", 32),
		Admins:             adminEmails(env),
		Zone:               env.Location("DISPLAY_TIMEZONE", "America/Argentina/Buenos_Aires"),
	}
}

// optionalKey is env.Key for a variable that may be unset (nil then), logged masked like it.
// When set, it goes through env.Key itself (on its own, so that it is logged once), so the
// rules are SESSION_KEY's, and a bad value stops the service at start like any other.
func optionalKey(env *config.Env, name string, minBytes int) []byte {
	v := env.Secret(name, "")
	if v == "" {
		return nil
	}
	one := config.FromMap(map[string]string{name: v})
	key := one.Key(name, minBytes)
	if err := one.Err(); err != nil {
		env.Problem("%s", strings.TrimPrefix(err.Error(), "configuration: "))
	}
	return key
}

// adminEmails reads ADMIN_EMAILS, comma-separated addresses; an entry that is not one (a
// semicolon instead of a comma, a name) stops the service at start rather than leaving an
// organiser without access.
func adminEmails(env *config.Env) session.Admins {
	emails := env.List("ADMIN_EMAILS")
	for _, e := range emails {
		if addr, err := mail.ParseAddress(e); err != nil || addr.Address != e {
			env.Problem("ADMIN_EMAILS must be e-mail addresses separated by commas (%q is not one)", e)
		}
	}
	return session.NewAdmins(emails)
}

// Logger writes JSON lines (LOG_FORMAT=text for a terminal) tagged with the service.
func Logger(name string) *slog.Logger {
	level := slog.LevelInfo
	if os.Getenv("LOG_LEVEL") == "debug" {
		level = slog.LevelDebug
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewJSONHandler(os.Stderr, opts)
	if os.Getenv("LOG_FORMAT") == "text" {
		h = slog.NewTextHandler(os.Stderr, opts)
	}
	return slog.New(h).With(slog.String("service", name))
}
