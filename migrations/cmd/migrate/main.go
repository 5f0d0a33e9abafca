// Command migrate creates the service roles and schemas and applies every migration. It runs
// before new pods start (the chart's pre-install/pre-upgrade Job) and in `make up`.
package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"prode/migrations"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil)).With(slog.String("service", "migrate"))
	adminURL := os.Getenv("DATABASE_URL")
	if adminURL == "" {
		log.Error("DATABASE_URL is required (a role that may create roles and schemas)")
		os.Exit(2)
	}
	// ROLE_PASSWORD_PLAYERS and friends set the service roles' passwords (production);
	// locally the throwaway cluster trusts loopback connections and none are needed.
	passwords := map[string]string{}
	for _, schema := range migrations.Schemas {
		passwords[schema] = os.Getenv("ROLE_PASSWORD_" + strings.ToUpper(schema))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := migrations.Up(ctx, adminURL, passwords, log); err != nil {
		log.Error("migration failed", slog.String("error", err.Error()))
		os.Exit(1)
	}
}
