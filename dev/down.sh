#!/usr/bin/env bash
# `make down`: stops what dev/up.sh started (same PRODE_* overrides). Keeps the data in .dev/.
#   dev/down.sh delete   also deletes the state folder, with PostgreSQL's folder outside it when
#                        it has one (as root in a private folder: dev/lib.sh pg_place)
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=down
case ${1:-} in
  "" | delete) ;;
  *) die "usage: dev/down.sh [delete]" ;;
esac
stack_config

for svc in "${SERVICES[@]}"; do stop_pidfile "$STATE/run/$svc.pid" "$svc"; done
nginx_stop "$STATE/nginx"
redis_stop "$STATE/redis"
if [ "${1:-}" = delete ]; then
  pg_delete "$STATE/pg"
  rm -rf "$STATE"
  log "stopped and deleted $STATE"
else
  pg_stop "$STATE/pg"
  log "stopped (data kept in $STATE)"
fi
