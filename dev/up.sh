#!/usr/bin/env bash
# `make up`: the whole game on one local URL, from a fresh clone. State (databases, binaries, logs,
# pids) lives under .dev/ (PRODE_STATE_DIR). Re-running restarts the services cleanly and keeps
# the data. Progress goes to stderr; stdout gets exactly one line: "Prode: http://localhost:8080/".
#
# Overrides: PRODE_PORT (8080), PRODE_STATE_DIR (.dev), PRODE_PG_PORT (55432),
# PRODE_REDIS_PORT (56379), PRODE_SVC_PORT_BASE (18080: services on 18081..18084, admin +1000),
# PRODE_LOG_LEVEL (info; debug also logs every successful request),
# PRODE_SIGNIN_RATE and PRODE_SIGNIN_BURST (the players service's SIGNIN_RATE and SIGNIN_BURST),
# PRODE_WRITE_RATE and PRODE_WRITE_BURST (predictions' and scoring's WRITE_RATE and WRITE_BURST),
# PRODE_MEMORY_LIMIT (every Go service's MEMORY_LIMIT in bytes, as the chart sets it from each
# container's memory limit: the Go runtime's soft limit is 85 % of it; unset: none),
# PRODE_WEB_DIST (a web app built already, e.g. another checkout's web/dist, served instead of
# building web/; one without index.html gives a placeholder page),
# REAL_DATES=1 seeds the real Qatar 2022 dates instead of shifting them to the near future.
# These ports are fixed, for a person to open; the stacks of `make test` take free ones.
# As root in a private folder, PostgreSQL's data lives outside the checkout (dev/lib.sh pg_place).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=up
stack_config
cd "$ROOT"

ensure_packages
mkdir -p "$STATE/bin" "$STATE/logs" "$STATE/run"

log "postgres on 127.0.0.1:$PG_PORT, redis on 127.0.0.1:$REDIS_PORT"
pg_start "$STATE/pg" "$PG_PORT"
redis_start "$STATE/redis" "$REDIS_PORT"

log "building the Go binaries"
go build -o "$STATE/bin/" ./services/players/cmd/players ./services/fixtures/cmd/fixtures \
  ./services/fixtures/cmd/fixtures-seed ./services/predictions/cmd/predictions \
  ./services/scoring/cmd/scoring ./migrations/cmd/migrate >&2 \
  || die "go build failed (see above): the services and migrations must build before the stack can start"

db_url() { echo "postgres://$1@127.0.0.1:$PG_PORT/prode?sslmode=disable"; }
pg_createdb "$PG_PORT" prode
log "migrating"
DATABASE_URL=$(db_url postgres) "$STATE/bin/migrate" </dev/null >&2 || die "migrate failed"
log "seeding fixtures${REAL_DATES:+ (real dates)}"
seed_args=()
[ "${REAL_DATES:-}" != 1 ] || seed_args+=(--real-dates)
DATABASE_URL=$(db_url prode_fixtures) "$STATE/bin/fixtures-seed" "${seed_args[@]}" </dev/null >&2 || die "fixtures-seed failed"

# One session key per checkout, kept so sessions survive restarts.
if [ ! -s "$STATE/session.key" ]; then
  (umask 077 && head -c 32 /dev/urandom | base64 >"$STATE/session.key")
fi
SESSION_KEY=$(cat "$STATE/session.key")

for svc in "${SERVICES[@]}"; do stop_pidfile "$STATE/run/$svc.pid" "$svc"; done
for svc in "${SERVICES[@]}"; do
  port=$(svc_port "$svc") admin=$(svc_admin_port "$svc")
  for p in "$port" "$admin"; do
    port_busy "$p" && die "port $p (for $svc) is in use by another process (see PRODE_SVC_PORT_BASE)"
  done
  extra=()
  case $svc in
    players) extra=(DEV_LOGIN=true)    # the local account chooser stands in for Google
             # The e2e suite signs in some forty people from one address: more than 10/min.
             [ -z "${PRODE_SIGNIN_RATE:-}" ] || extra+=(SIGNIN_RATE="$PRODE_SIGNIN_RATE" SIGNIN_BURST="${PRODE_SIGNIN_BURST:-10}") ;;
  esac
  case $svc in
    # scoring's standings cache and live events; players' and scoring's shared rate limits.
    players|scoring) extra+=(REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0") ;;
  esac
  case $svc in
    predictions|scoring)
      [ -z "${PRODE_WRITE_RATE:-}" ] || extra+=(WRITE_RATE="$PRODE_WRITE_RATE" WRITE_BURST="${PRODE_WRITE_BURST:-20}") ;;
  esac
  # A clean environment: what the service sees is exactly this list, whatever the shell has.
  nohup env -i PATH="$PATH" HOME="$HOME" \
    HTTP_ADDR="127.0.0.1:$port" ADMIN_ADDR="127.0.0.1:$admin" DATABASE_URL="$(db_url "prode_$svc")" \
    SESSION_KEY="$SESSION_KEY" PUBLIC_ORIGIN="http://localhost:$PRODE_PORT" LOG_FORMAT=json \
    ADMIN_EMAILS=admin@prode.test \
    LOG_LEVEL="${PRODE_LOG_LEVEL:-info}" PPROF="${PRODE_PPROF:-false}" \
    ${PRODE_MEMORY_LIMIT:+MEMORY_LIMIT="$PRODE_MEMORY_LIMIT"} \
    "${extra[@]}" "$STATE/bin/$svc" </dev/null >"$STATE/logs/$svc.log" 2>&1 &
  echo $! >"$STATE/run/$svc.pid"
  log "$svc on 127.0.0.1:$port (admin $admin), log $STATE/logs/$svc.log"
done

WEB_DIST=${PRODE_WEB_DIST:-$ROOT/web/dist}
if [ -n "${PRODE_WEB_DIST:-}" ]; then
  if [ -f "$WEB_DIST/index.html" ]; then log "serving the web app built in $WEB_DIST (PRODE_WEB_DIST)"
  else log "no web app in $WEB_DIST (PRODE_WEB_DIST): a placeholder page"; fi
elif [ -f web/package.json ]; then
  log "building the web app"
  (
    cd web
    if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then npm ci --no-audit --no-fund; fi
    npm run build
  ) </dev/null >&2 || die "web build failed"
fi

mkdir -p "$STATE/nginx"
if ! pid_alive "$STATE/nginx/nginx.pid" nginx && port_busy "$PRODE_PORT"; then
  die "port $PRODE_PORT is in use by another process (set PRODE_PORT)"
fi
for svc in "${SERVICES[@]}"; do export "${svc^^}_PORT=$(svc_port "$svc")"; done
WEB_DIST=$WEB_DIST LISTEN_PORT=$PRODE_PORT dev/nginx-routes.sh >"$STATE/nginx/site.conf"
nginx_start "$STATE/nginx"

for svc in "${SERVICES[@]}"; do
  url="http://127.0.0.1:$(svc_admin_port "$svc")/readyz"
  deadline=$((SECONDS + 60))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url")" = 200 ]; do
    if ! pid_alive "$STATE/run/$svc.pid"; then
      tail -n 30 "$STATE/logs/$svc.log" >&2; die "$svc exited (log above)"
    fi
    if [ $SECONDS -ge $deadline ]; then
      tail -n 30 "$STATE/logs/$svc.log" >&2; die "$svc not ready at $url after 60 s (log above)"
    fi
    sleep 0.2
  done
done
wait_http "http://127.0.0.1:$PRODE_PORT/" 15 || die "nginx does not answer on port $PRODE_PORT"

echo "Prode: http://localhost:$PRODE_PORT/"
