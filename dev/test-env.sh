#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis for the Go tests, separate from `make up`'s.
#   eval "$(dev/test-env.sh)"   starts them (if not running) and prints the export lines
#   dev/test-env.sh stop        stops them and deletes their data
#   dev/test-env.sh status      exits 0 when both run
# Ports: free ones chosen at start (dev/lib.sh free_port), so that two checkouts test at once;
# a running pair keeps its ports. PRODE_TEST_PG_PORT, PRODE_TEST_REDIS_PORT choose them instead.
# Data under .test/ (PostgreSQL outside it as root in a private folder: dev/lib.sh pg_place).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=test-env
DIR=$ROOT/.test

case ${1:-start} in
  stop)
    pg_delete "$DIR/pg"
    redis_stop "$DIR/redis"
    rm -rf "$DIR/redis"
    exit 0
    ;;
  status)
    if pg_port "$DIR/pg" >/dev/null && redis_port "$DIR/redis" >/dev/null; then exit 0; fi
    exit 1
    ;;
  start) ;;
  *) die "usage: dev/test-env.sh [start|stop|status]" ;;
esac

ensure_packages
PG_PORT=${PRODE_TEST_PG_PORT:-} REDIS_PORT=${PRODE_TEST_REDIS_PORT:-}
[ -n "$PG_PORT" ] || PG_PORT=$(pg_port "$DIR/pg") || PG_PORT=$(free_port)
pg_start "$DIR/pg" "$PG_PORT"
# Drawn after PostgreSQL listens, so never its port.
[ -n "$REDIS_PORT" ] || REDIS_PORT=$(redis_port "$DIR/redis") || REDIS_PORT=$(free_port)
redis_start "$DIR/redis" "$REDIS_PORT"
# A pair that was already running keeps its ports, whatever was asked.
PG_PORT=$(pg_port "$DIR/pg") || die "postgres in $DIR/pg is not running"
REDIS_PORT=$(redis_port "$DIR/redis") || die "redis in $DIR/redis is not running"
# The test harness clones per-test databases from this (empty) template.
pg_createdb "$PG_PORT" prode_template
echo "export PRODE_TEST_PG_ADMIN_URL='postgres://postgres@127.0.0.1:$PG_PORT/postgres?sslmode=disable'"
echo "export PRODE_TEST_REDIS_URL='redis://127.0.0.1:$REDIS_PORT/0'"
