// Command migrate creates the service roles and schemas and applies every migration. It runs
// before new pods start (the chart's pre-install/pre-upgrade Job) and in `make up`. It also
// shows and forces the schemas' versions, for an operator, and rebuilds the predictions' match
// index once a match closes (the chart's CronJob), as only the tables' owner may (see usage).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"prode/migrations"
)

const usage = `Usage:
  migrate [up]                   create the service roles and schemas, apply every migration
  migrate status                 log each schema's version, whether it is dirty, and the latest
  migrate force SCHEMA VERSION   record SCHEMA as migrated to VERSION, clean, running nothing;
                                 VERSION "none" records that nothing is applied
  migrate reindex [force]        rebuild the predictions' match index (REINDEX CONCURRENTLY:
                                 saves and reads go on) if a match's betting has closed since
                                 the last rebuild, or in any case with "force"; the chart runs it
                                 every few minutes (docs/operations.md)

A migration that fails leaves its schema "dirty" at its version. Each migration runs in one
transaction, so nothing of it is applied: the next "migrate up" logs the failure ("recovering a
failed migration") and sets the schema back to the version before it, then migrates as usual;
a retried Job, or an upgrade with a fixed migration, goes through without anyone running SQL.
With MIGRATE_RECOVER_DIRTY=false, "up" stops at a dirty schema instead, and "force" is the way out
(after "status", once you know what the failed migration left).

Environment:
  DATABASE_URL            a role that may create roles and schemas (required)
  ROLE_PASSWORD_<SCHEMA>  up: passwords of the service roles (PLAYERS, FIXTURES, PREDICTIONS,
                          SCORING); unset leaves a role's password as it is
  MIGRATE_RECOVER_DIRTY   up: recover a schema a failed run left dirty (default true)
`

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil)).With(slog.String("service", "migrate"))
	args := os.Args[1:]
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		fmt.Print(usage)
		return
	}
	cmd := "up"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	if !knownCommand(cmd, args) {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	adminURL := os.Getenv("DATABASE_URL")
	if adminURL == "" {
		log.Error("DATABASE_URL is required (a role that may create roles and schemas)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	switch cmd {
	case "up":
		// Recovery is on unless turned off. A dirty schema means a migration failed and its
		// transaction rolled back (migrations.go says why that holds), so setting the version
		// back is exact, and doing it here is what lets a retried Job or a `helm upgrade` with a
		// fixed image succeed: the Job has no one to run SQL by hand. The switch is for an
		// operator who wants a dirty schema left as it is, e.g. to look at a migration that
		// bypassed these rules (its own COMMIT, or a database another tool migrated).
		recoverDirty := true
		if v := os.Getenv("MIGRATE_RECOVER_DIRTY"); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				log.Error("MIGRATE_RECOVER_DIRTY must be true or false", slog.String("value", v))
				os.Exit(2)
			}
			recoverDirty = b
		}
		// ROLE_PASSWORD_PLAYERS and friends set the service roles' passwords (production);
		// locally the throwaway cluster trusts loopback connections and none are needed.
		passwords := map[string]string{}
		for _, schema := range migrations.Schemas {
			passwords[schema] = os.Getenv("ROLE_PASSWORD_" + strings.ToUpper(schema))
		}
		mg := migrations.Migrator{Log: log, RecoverDirty: recoverDirty}
		if err := mg.Up(ctx, adminURL, passwords); err != nil {
			attrs := []any{slog.String("error", err.Error())}
			if derr := (*migrations.DirtyError)(nil); errors.As(err, &derr) {
				fix := fmt.Sprintf("see why it failed, then `migrate force %s %s`, or run again without MIGRATE_RECOVER_DIRTY=false",
					derr.Schema, versionArg(derr.Previous))
				if derr.Version == migrations.NoVersion {
					fix = fmt.Sprintf("see which version the schema is at, then `migrate force %s VERSION`", derr.Schema)
				}
				attrs = append(attrs, slog.String("fix", fix))
			}
			log.Error("migration failed", attrs...)
			os.Exit(1)
		}
	case "status":
		statuses, err := migrations.Migrator{Log: log}.Status(ctx, adminURL)
		if err != nil {
			log.Error("status failed", slog.String("error", err.Error()))
			os.Exit(1)
		}
		for _, s := range statuses {
			log.Info("status", slog.String("schema", s.Schema), slog.Int("version", s.Version),
				slog.Bool("dirty", s.Dirty), slog.Int("latest", s.Latest))
		}
	case "force":
		version := migrations.NoVersion
		if args[1] != "none" {
			v, err := strconv.Atoi(args[1])
			if err != nil || v < 0 {
				log.Error(`force: VERSION must be a migration's number or "none"`, slog.String("value", args[1]))
				os.Exit(2)
			}
			version = v
		}
		if err := (migrations.Migrator{Log: log}).Force(ctx, adminURL, args[0], version); err != nil {
			log.Error("force failed", slog.String("error", err.Error()))
			os.Exit(1)
		}
	case "reindex":
		r, err := migrations.Migrator{Log: log}.RebuildPredictionsIndex(ctx, adminURL, len(args) == 1)
		for _, name := range r.DroppedStale {
			log.Warn("dropped an index an interrupted rebuild had left", slog.String("index", name))
		}
		if err != nil {
			log.Error("rebuilding the predictions' index failed", slog.String("error", err.Error()))
			os.Exit(1)
		}
		if !r.Rebuilt {
			log.Info("the predictions' index not rebuilt", slog.String("reason", r.Reason))
			return
		}
		log.Info("the predictions' index rebuilt", slog.String("reason", r.Reason),
			slog.Float64("seconds", r.Took.Seconds()), slog.Int64("bytes_before", r.SizeBefore), slog.Int64("bytes_after", r.SizeAfter))
	}
}

func versionArg(v int) string {
	if v == migrations.NoVersion {
		return "none"
	}
	return strconv.Itoa(v)
}

// knownCommand: up and status take no argument, force takes a schema and a version, reindex
// may say force.
func knownCommand(cmd string, args []string) bool {
	switch cmd {
	case "up", "status":
		return len(args) == 0
	case "force":
		return len(args) == 2
	case "reindex":
		return len(args) == 0 || len(args) == 1 && args[0] == "force"
	}
	return false
}
