#!/usr/bin/env bash
# `make down`: stops what dev/up.sh started (same PRODE_* overrides). Keeps the data in .dev/.
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=down
stack_config

for svc in "${SERVICES[@]}"; do stop_pidfile "$STATE/run/$svc.pid" "$svc"; done
nginx_stop "$STATE/nginx"
redis_stop "$STATE/redis"
pg_stop "$STATE/pg"
log "stopped (data kept in $STATE)"
