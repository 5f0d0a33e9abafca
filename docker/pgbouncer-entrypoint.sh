#!/bin/sh
# Writes PgBouncer's auth file, then runs PgBouncer in the foreground with the given config.
#   PGBOUNCER_ROLES                 the login roles, space-separated (prode_players ...)
#   PGBOUNCER_PASSWORD_<role>       each role's password, as PostgreSQL knows it
#   PGBOUNCER_AUTH_FILE             where pgbouncer.ini's auth_file points
# PgBouncer checks a client's password against this file and logs in to PostgreSQL with the same
# one, so the file holds the passwords themselves: it goes to a memory-backed folder of the pod,
# readable by this user alone, never to the image or a ConfigMap.
set -eu
: "${PGBOUNCER_ROLES:?PGBOUNCER_ROLES must list the login roles}"
auth=${PGBOUNCER_AUTH_FILE:-/run/pgbouncer/userlist.txt}
umask 077
tmp=$auth.tmp
: >"$tmp"
for role in $PGBOUNCER_ROLES; do
  password=$(printenv "PGBOUNCER_PASSWORD_$role") || {
    echo "pgbouncer-entrypoint: PGBOUNCER_PASSWORD_$role is not set" >&2
    exit 1
  }
  # The file's format: "name" "password", a double quote doubled inside either.
  printf '"%s" "%s"\n' "$role" "$(printf '%s' "$password" | sed 's/"/""/g')" >>"$tmp"
done
mv "$tmp" "$auth"
# Each client and server connection is a file descriptor: allow as many as the container may
# (max_client_conn can be thousands; a runtime's soft limit is often 1024).
# shellcheck disable=SC3045 # not in POSIX, but in every sh the image may have (dash, busybox)
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec /usr/sbin/pgbouncer "$@"
