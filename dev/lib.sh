# shellcheck shell=bash
# Shared helpers for the dev/ scripts: throwaway PostgreSQL, Redis and nginx instances that live
# in a folder of the repo, started from the system's binaries. Source it; it sets strict mode.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_BIN=/usr/lib/postgresql/15/bin
NGINX=$(command -v nginx || echo /usr/sbin/nginx)   # /usr/sbin is not on every user's PATH

log() { echo "${LOG_PREFIX:-dev}: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Run a daemon-starting command with all its output in LOGFILE, so a started daemon never holds
# our stdout (callers capture it, e.g. eval "$(dev/test-env.sh)"); on failure show the log's end.
logged() {
  local logfile=$1; shift
  if ! "$@" </dev/null >>"$logfile" 2>&1; then
    log "failed: $*"; tail -n 20 "$logfile" >&2; return 1
  fi
}

# ensure_packages [chromium] [gcc] [wrk]: install what is missing from Debian's packages
# (gcc: go test -race needs cgo; wrk: make bench's load generator).
ensure_packages() {
  local pkgs=()
  [ -x "$PG_BIN/initdb" ] || pkgs+=(postgresql-15)
  command -v redis-server >/dev/null || pkgs+=(redis-server)
  [ -x "$NGINX" ] || pkgs+=(nginx)
  command -v curl >/dev/null || pkgs+=(curl)
  local extra
  for extra in "$@"; do
    case $extra in
      chromium) command -v chromium >/dev/null || pkgs+=(chromium) ;;
      gcc) command -v gcc >/dev/null || pkgs+=(gcc libc6-dev) ;;
      wrk) command -v wrk >/dev/null || pkgs+=(wrk) ;;
      *) die "ensure_packages: unknown extra '$extra'" ;;
    esac
  done
  [ ${#pkgs[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing packages; run: sudo apt-get update && sudo apt-get install -y ${pkgs[*]}"
  log "installing ${pkgs[*]}"
  # Wait for another install's lock (two targets started at once) instead of failing.
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${pkgs[@]}" </dev/null >&2
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
}

# A TCP port someone listens on (any process, not only ours).
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Is the process in PIDFILE alive (and, if given, named NAME)?
pid_alive() {
  local pidfile=$1 name=${2:-} pid
  [ -s "$pidfile" ] || return 1
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 1
  [ -z "$name" ] || grep -q "$name" "/proc/$pid/comm" 2>/dev/null
}

# Stop the process in PIDFILE (TERM, then KILL after 10 s) and remove the file.
stop_pidfile() {
  local pidfile=$1 name=${2:-} pid i
  if pid_alive "$pidfile" "$name"; then
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

# --- PostgreSQL -----------------------------------------------------------------------------
# initdb and postgres refuse to run as root: as root, run them as the postgres user.
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# pg_start DIR PORT: a throwaway cluster in DIR/data, socket in DIR, log in DIR/postgres.log.
pg_start() {
  local dir=$1 port=$2
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  touch "$dir/postgres.log"   # written by both pg_ctl's caller and the server
  [ "$(id -u)" -ne 0 ] || chown postgres: "$dir" "$dir/postgres.log"
  as_pg test -w "$dir" || die "user postgres cannot write $dir (is a parent folder private?)"
  if [ ! -s "$dir/data/PG_VERSION" ]; then
    logged "$dir/postgres.log" as_pg "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync
    # Speed over durability: the data is throwaway.
    cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
EOF
  fi
  if as_pg "$PG_BIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    return 0   # already running: keep it
  fi
  logged "$dir/postgres.log" as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 30 -o "-p $port" start
}

pg_stop() {
  local dir=$1
  [ -s "$dir/data/PG_VERSION" ] || return 0
  if as_pg "$PG_BIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    logged "$dir/postgres.log" as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop
  fi
}

# pg_psql PORT [psql args...]: psql as the superuser over TCP.
pg_psql() { local port=$1; shift; "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres "$@"; }

# pg_createdb PORT NAME: create the database unless it exists.
pg_createdb() {
  local port=$1 db=$2
  if [ -z "$(pg_psql "$port" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
    pg_psql "$port" -d postgres -c "CREATE DATABASE \"$db\""
  fi
}

# --- Redis ----------------------------------------------------------------------------------
redis_start() {
  local dir=$1 port=$2
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  pid_alive "$dir/redis.pid" redis && return 0
  logged "$dir/redis.log" redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
    --daemonize yes --pidfile "$dir/redis.pid" --dir "$dir" --logfile "$dir/redis.log"
  local i
  for i in $(seq 50); do
    [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ] && return 0
    sleep 0.1
  done
  tail -n 20 "$dir/redis.log" >&2
  die "redis did not answer on port $port"
}

redis_stop() { stop_pidfile "$1/redis.pid" redis; }

# --- nginx ----------------------------------------------------------------------------------
# nginx_start DIR: runs nginx with DIR as its prefix. The caller writes the http-level config
# (upstreams, servers) to DIR/site.conf; this writes the main DIR/nginx.conf around it.
# If nginx already runs there, it is reloaded with the new config.
nginx_start() {
  local dir=$1
  mkdir -p "$dir/logs" "$dir/tmp"
  dir=$(cd "$dir" && pwd)
  [ -f "$dir/site.conf" ] || die "nginx_start: $dir/site.conf missing"
  [ -f /etc/nginx/mime.types ] || die "/etc/nginx/mime.types missing (apt-get install nginx)"
  # As root, nginx would switch its workers to 'nobody', who may not read the repo: keep the
  # workers as whoever starts it, as when a normal user runs it.
  local user=""
  [ "$(id -u)" -ne 0 ] || user="user root;"
  cat >"$dir/nginx.conf" <<EOF
# Generated by dev/lib.sh nginx_start; do not edit.
$user
daemon on;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  # No cookies, no query strings (they could carry a code), no referrer; the request id that
  # the services log too (\$prode_request_id comes from site.conf). dev/check-logs.sh checks it.
  log_format prode '\$remote_addr [\$time_iso8601] "\$request_method \$uri \$server_protocol" '
                   '\$status \$body_bytes_sent \$request_time rid=\$prode_request_id';
  access_log $dir/logs/access.log prode;
  client_body_temp_path $dir/tmp/client_body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  include $dir/site.conf;
}
EOF
  # -e: the error log before the config is read (the default /var/log/nginx needs root).
  local nginx=("$NGINX" -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log")
  logged "$dir/logs/error.log" "${nginx[@]}" -t
  if pid_alive "$dir/nginx.pid" nginx; then
    logged "$dir/logs/error.log" "${nginx[@]}" -s reload
  else
    logged "$dir/logs/error.log" "${nginx[@]}"
  fi
}

nginx_stop() { stop_pidfile "$1/nginx.pid" nginx; }

# wait_http URL SECONDS: poll until URL answers 200.
wait_http() {
  local url=$1 deadline=$((SECONDS + $2)) code
  while :; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)
    [ "$code" = 200 ] && return 0
    if [ $SECONDS -ge $deadline ]; then
      log "$url still answers '${code}' after $2 s"; return 1
    fi
    sleep 0.2
  done
}

# routes_parse [FILE]: the route table as lines "PATH PATHTYPE SERVICE". Reads only the
# restricted one-route-per-line format of charts/prode/routes.yaml and rejects anything else.
routes_parse() {
  awk '
    /^[[:space:]]*(#.*)?$/ || /^routes:[[:space:]]*$/ { next }
    {
      line = $0
      if (!sub(/^  - \{/, "", line) || !sub(/\}[[:space:]]*$/, "", line)) bad()
      n = split(line, kv, /,[[:space:]]*/)
      delete r
      for (i = 1; i <= n; i++) {
        if (!match(kv[i], /^[a-zA-Z]+: /)) bad()
        r[substr(kv[i], 1, RLENGTH - 2)] = substr(kv[i], RLENGTH + 1)
      }
      if (n != 3 || r["path"] !~ /^\/[^ ]*$/ || r["pathType"] !~ /^(Exact|Prefix)$/ || r["service"] !~ /^[a-z][a-z0-9-]*$/) bad()
      print r["path"], r["pathType"], r["service"]
    }
    function bad() { printf "%s:%d: not a route line: %s\n", FILENAME, FNR, $0 > "/dev/stderr"; exit 1 }
  ' "${1:-$ROOT/charts/prode/routes.yaml}"
}

# --- The local stack (dev/up.sh, dev/down.sh) -------------------------------------------------
# Every value can be overridden, so a second stack (make test-e2e) runs beside `make up`.
SERVICES=(players fixtures predictions scoring)
stack_config() {
  STATE=${PRODE_STATE_DIR:-$ROOT/.dev}
  mkdir -p "$STATE"; STATE=$(cd "$STATE" && pwd)
  PG_PORT=${PRODE_PG_PORT:-55432}
  REDIS_PORT=${PRODE_REDIS_PORT:-56379}
  PRODE_PORT=${PRODE_PORT:-8080}
  SVC_PORT_BASE=${PRODE_SVC_PORT_BASE:-18080}
}
# API port of a service: players base+1, fixtures base+2, predictions base+3, scoring base+4.
svc_port() {
  local i
  for i in "${!SERVICES[@]}"; do
    [ "${SERVICES[$i]}" != "$1" ] || { echo $((SVC_PORT_BASE + i + 1)); return; }
  done
  die "unknown service $1"
}
# Admin port (/healthz, /readyz, /metrics): the API port + 1000.
svc_admin_port() { echo $(($(svc_port "$1") + 1000)); }
