#!/usr/bin/env bash
# The long-running checks that do not fit `make test`. Usage: dev/soak.sh [fuzz|pgdown|redisdown|rush|all] (default all)
#   fuzz    runs every `go test -fuzz` target of every Go module for FUZZTIME each (default 30s).
#           `make test` runs only their checked-in seeds (testdata/fuzz/<FuzzName>/) as ordinary
#           tests. A failing input is written under the package's testdata/fuzz/<FuzzName>/: fix
#           the bug and keep the file, so it becomes a seed.
#   pgdown  the PostgreSQL-outage scenarios with a long outage (PGDOWN_SECONDS, default 30):
#           predictions' writes (directly and through PgBouncer), scoring's standings, players'
#           renames and sessions, fixtures' results.
#   redisdown  the Redis-outage scenario with a long outage (REDISDOWN_SECONDS, default 30).
#   rush    the match-day rush (dev/bench.sh rush): 10,000 players saving predictions while others
#           read the standings and a result is scored, for RUSH_SECONDS (60); fails at 0.1 %
#           errors or a p95 of 200 ms; figures in .soak/rush.md.
# Ends with "N passed, M failed", like dev/test.sh (step and steps_summary in dev/lib.sh).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=soak
cd "$ROOT"
what=${1:-all}
FUZZTIME=${FUZZTIME:-30s}
MODULES=(services/platform services/players services/fixtures services/predictions services/scoring)

fuzz_one() { (cd "$1" && go test -run '^$' -fuzz "^$3\$" -fuzztime "$FUZZTIME" "$2"); }

fuzz_all() {
  local m pkg name
  for m in "${MODULES[@]}"; do
    # Packages with fuzz targets, and their targets.
    while read -r pkg; do
      for name in $(cd "$m" && go test -list '^Fuzz' "$pkg" | grep '^Fuzz'); do
        step "fuzz $name ($pkg, $FUZZTIME)" fuzz_one "$m" "$pkg" "$name"
      done
    done < <(cd "$m" && grep -rl --include='*_test.go' '^func Fuzz' . | xargs -r -n1 dirname | sort -u)
  done
}

pgdown() {
  ensure_packages gcc pgbouncer
  local service
  for service in predictions scoring players fixtures; do
    (cd "services/$service" && PGDOWN_SECONDS=${PGDOWN_SECONDS:-30} go test -count=1 -v -run '^TestPostgresOutage(ThroughPgBouncer)?$' -timeout 15m "./cmd/$service") || return
  done
}

redisdown() {
  ensure_packages gcc
  # PostgreSQL from the tests' throwaway cluster; the test starts and kills a Redis of its own.
  # The cluster is stopped afterwards unless it was running already (a `make test` of this
  # checkout using it): left running, it holds its ports and data for nothing.
  local ours=1 rc=0
  ! dev/test-env.sh status || ours=0
  eval "$(dev/test-env.sh)"
  (cd services/scoring && REDISDOWN_SECONDS=${REDISDOWN_SECONDS:-30} go test -count=1 -v -run '^TestRedisOutageUnderLoad$' -timeout 15m ./cmd/scoring) || rc=$?
  [ "$ours" = 0 ] || dev/test-env.sh stop >/dev/null || true
  return "$rc"
}

case $what in
  fuzz) fuzz_all ;;
  pgdown) step "postgres down ${PGDOWN_SECONDS:-30} s" pgdown ;;
  redisdown) step "redis down ${REDISDOWN_SECONDS:-30} s" redisdown ;;
  rush) step "match-day rush ${RUSH_SECONDS:-60} s" dev/bench.sh rush ;;
  all)
    fuzz_all
    step "postgres down ${PGDOWN_SECONDS:-30} s" pgdown
    step "redis down ${REDISDOWN_SECONDS:-30} s" redisdown
    step "match-day rush ${RUSH_SECONDS:-60} s" dev/bench.sh rush
    ;;
  *) die "usage: dev/soak.sh [fuzz|pgdown|redisdown|rush|all]" ;;
esac
steps_summary
