#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis for the Go tests, separate from `make up`'s.
#   eval "$(dev/test-env.sh)"   starts them (if not running) and prints the export lines
#   dev/test-env.sh stop        stops them and deletes their data
# Ports: PRODE_TEST_PG_PORT (55433), PRODE_TEST_REDIS_PORT (56380). Data under .test/.
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=test-env
PG_PORT=${PRODE_TEST_PG_PORT:-55433}
REDIS_PORT=${PRODE_TEST_REDIS_PORT:-56380}
DIR=$ROOT/.test

if [ "${1:-}" = stop ]; then
  pg_stop "$DIR/pg"
  redis_stop "$DIR/redis"
  rm -rf "$DIR/pg" "$DIR/redis"
  exit 0
fi

ensure_packages
pg_start "$DIR/pg" "$PG_PORT"
redis_start "$DIR/redis" "$REDIS_PORT"
# The test harness clones per-test databases from this (empty) template.
pg_createdb "$PG_PORT" prode_template
echo "export PRODE_TEST_PG_ADMIN_URL='postgres://postgres@127.0.0.1:$PG_PORT/postgres?sslmode=disable'"
echo "export PRODE_TEST_REDIS_URL='redis://127.0.0.1:$REDIS_PORT/0'"
