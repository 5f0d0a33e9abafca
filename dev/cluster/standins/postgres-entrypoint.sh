#!/bin/sh
# What the official postgres image's entrypoint does that the chart relies on: on an empty
# $PGDATA, initdb with the superuser password from POSTGRES_PASSWORD (scram-sha-256 over TCP),
# listen on every address, create POSTGRES_DB; then run the server in the foreground.
set -eu
if [ "${1:-}" = postgres ]; then
  shift
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
    mkdir -p "$PGDATA"; chmod 700 "$PGDATA"
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    initdb -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --pwfile="$pwfile" -E UTF8 \
      --auth-local=trust --auth-host=scram-sha-256
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    db=${POSTGRES_DB:-postgres}
    if [ "$db" != postgres ]; then
      pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /var/run/postgresql" -w start
      psql -v ON_ERROR_STOP=1 -h /var/run/postgresql -U "${POSTGRES_USER:-postgres}" -d postgres \
        -c "CREATE DATABASE \"$db\""
      pg_ctl -D "$PGDATA" -m fast -w stop
    fi
  fi
  exec postgres -D "$PGDATA" "$@"
fi
exec "$@"
