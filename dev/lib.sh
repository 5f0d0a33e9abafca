# shellcheck shell=bash
# Shared helpers for the dev/ scripts: throwaway PostgreSQL, Redis and nginx instances that live
# in a folder of the repo, started from the system's binaries. Source it; it sets strict mode.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_BIN=/usr/lib/postgresql/15/bin
NGINX=$(command -v nginx || echo /usr/sbin/nginx)   # /usr/sbin is not on every user's PATH

# The tools the dev/ scripts build or unpack (golangci-lint, helm, Kubernetes, CoreDNS, Traefik,
# promtool...: dev/chart-tools.sh) are kept once per machine and user, outside every checkout,
# like Go's own caches: a fresh clone, a second checkout and CI use them instead of building them
# again (Kubernetes alone takes about 8 minutes on two cores). PRODE_TOOLS_DIR puts them elsewhere.
TOOLS=${PRODE_TOOLS_DIR:-${XDG_CACHE_HOME:-${HOME:-$ROOT/.test}/.cache}/prode/tools}

# tools_build NAME COMMAND...: runs COMMAND, which builds the tool NAME into $TOOLS, under that
# tool's own lock on the machine, so that two checkouts starting at once build it once: the later
# one waits, then finds it. COMMAND checks again whether its tool is there (it may have been built
# meanwhile) and puts it in place with a rename, so that a check without the lock never sees half
# a file. One lock a tool: waiting for one never waits for another being built (dev/test.sh
# builds the cluster's in the background).
tools_build() {
  local name=$1; shift
  mkdir -p "$TOOLS"
  ( flock 8 && "$@" ) 8>"$TOOLS/.$name.lock"
}

# go_install_into DIR PACKAGE@VERSION [GO INSTALL FLAGS...]: go install into a folder of its
# own, then renamed to DIR, so that DIR appears with its binary whole.
go_install_into() {
  local dir=$1 pkg=$2; shift 2
  rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
  GOWORK=off GOBIN=$dir.tmp go install "$@" "$pkg" >&2 || { rm -rf "$dir.tmp"; return 1; }
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

log() { echo "${LOG_PREFIX:-dev}: $*" >&2; }
die() { log "error: $*"; exit 1; }

# step NAME COMMAND...: run one step of a suite (dev/test.sh, dev/soak.sh) and count it. Each
# step passes or fails on its own, and all run; steps_summary ends the suite with the failures,
# then "N passed, M failed" as the last line, and fails if a step did. Step bodies chain with &&
# (no set -e inside an if).
steps_passed=0 steps_failed=0 steps_failures=()
step() {
  local name=$1 start=$SECONDS; shift
  log "=== $name"
  if "$@"; then
    steps_passed=$((steps_passed + 1)); log "--- PASS $name ($((SECONDS - start)) s)"
  else
    steps_failed=$((steps_failed + 1)); steps_failures+=("$name"); log "--- FAIL $name ($((SECONDS - start)) s)"
  fi
}
steps_summary() {
  [ "$steps_failed" -eq 0 ] || log "failed: ${steps_failures[*]}"
  echo "$steps_passed passed, $steps_failed failed"
  [ "$steps_failed" -eq 0 ]
}

# Run a daemon-starting command with all its output in LOGFILE, so a started daemon never holds
# our stdout (callers capture it, e.g. eval "$(dev/test-env.sh)"); on failure show the log's end.
logged() {
  local logfile=$1; shift
  if ! "$@" </dev/null >>"$logfile" 2>&1; then
    log "failed: $*"; tail -n 20 "$logfile" >&2; return 1
  fi
}

# ensure_packages [chromium] [gcc] [wrk] [pgbouncer]: install what is missing from Debian's
# packages (gcc: go test -race needs cgo; wrk: make bench's load generator; pgbouncer: the
# PostgreSQL outage through PgBouncer, which the test starts itself).
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
      pgbouncer) [ -x /usr/sbin/pgbouncer ] || pkgs+=(pgbouncer) ;;
      shellcheck) command -v shellcheck >/dev/null || pkgs+=(shellcheck) ;;
      *) die "ensure_packages: unknown extra '$extra'" ;;
    esac
  done
  [ ${#pkgs[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing packages; run: sudo apt-get update && sudo apt-get install -y ${pkgs[*]}"
  log "installing ${pkgs[*]}"
  # Wait for another install's lock (two targets started at once) instead of failing.
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${pkgs[@]}" </dev/null >&2
  # Debian's package starts a PgBouncer of its own under systemd; the tests need only the binary.
  if [[ " ${pkgs[*]} " == *" pgbouncer "* ]] && [ -d /run/systemd/system ]; then
    systemctl disable --now pgbouncer >&2 || true
  fi
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
}

# A TCP port someone listens on (any process, not only ours).
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# free_port [OFFSET...]: prints a port P, chosen now, such that P+OFFSET is free on the loopback
# for every OFFSET (default 0; a stack asks for its service ports at once). P is drawn at random
# from 24000-32767: below Linux's ephemeral range (32768-60999, where the kernel picks the local
# port of every outgoing connection and so may hold any fixed port there when a server wants
# it: CI once failed with Redis "bind: Address already in use" on 56380), above the fixed ports
# of `make up` (8080, 18081-19084) and `make bench` (21080-22432). Two checkouts running
# `make test` at once draw different ports. python3, when there is one, binds each port on
# 127.0.0.1 and ::1 to test it (which also sees a port bound without listening, or with
# connections still in TIME_WAIT); without it, a connect probe checks nobody listens.
free_port() {
  [ $# -gt 0 ] || set -- 0
  local o max=0 p i ok
  for o in "$@"; do [ "$o" -le "$max" ] || max=$o; done
  if command -v python3 >/dev/null 2>&1 && python3 -c '
import errno, random, socket, sys
offsets = [int(a) for a in sys.argv[1:]]
def free(port):
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            s = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6 here
        try:
            s.bind((host, port))
        except OSError as e:
            if family == socket.AF_INET6 and e.errno == errno.EADDRNOTAVAIL:
                continue  # no ::1 here
            return False
        finally:
            s.close()
    return True
for _ in range(500):
    p = random.randint(24000, 32767 - max(offsets))
    if all(free(p + o) for o in offsets):
        print(p)
        sys.exit(0)
sys.exit(1)
' "$@" 2>/dev/null; then
    return 0
  fi
  for i in $(seq 500); do
    p=$((24000 + RANDOM % (32768 - 24000 - max))) ok=1
    for o in "$@"; do
      if port_busy $((p + o)); then ok=0; break; fi
    done
    if [ "$ok" = 1 ]; then echo "$p"; return 0; fi
  done
  log "free_port: no free port in 24000-32767 after $i tries"; return 1
}

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

# Where a cluster lives. pg_start DIR keeps the cluster (data/, the socket, postgres.log) in DIR
# itself, except when we are root and the postgres user cannot reach DIR: a checkout inside a
# private folder (root's home, a `mktemp -d` folder), whose permissions are the user's and stay
# as they are. Then it lives in a folder of postgres's own outside the checkout,
# $PG_OUTSIDE/prode-pg-<hash of DIR's path> (mode 700; /var/tmp survives a reboot, as DIR does),
# and DIR/home names it: pg_stop stops it, the next pg_start reuses it, pg_delete removes it. The
# hash makes it one folder per state folder, so two checkouts never share one; a DIR without
# DIR/home (its state folder was deleted to start over) starts from an empty cluster there.
PG_OUTSIDE=${PRODE_PG_OUTSIDE:-/var/tmp}

# pg_home DIR: the folder that holds DIR's cluster (DIR itself, or the one DIR/home names).
pg_home() { if [ -s "$1/home" ]; then cat "$1/home"; else echo "$1"; fi; }

# pg_outside_ok FOLDER: FOLDER is a real folder (no symbolic link) of postgres's own, mode 700,
# as pg_place makes it: nothing another user of this machine made in /var/tmp is ever used.
pg_outside_ok() { [ -d "$1" ] && [ ! -L "$1" ] && [ "$(stat -c '%U %a' "$1")" = "postgres 700" ]; }

# pg_place DIR: prints where DIR's cluster is to live (see above), making the outside folder.
pg_place() {
  local dir=$1 out
  if [ "$(id -u)" -ne 0 ] || [ -s "$dir/data/PG_VERSION" ]; then
    echo "$dir"; return 0   # ours already, or a cluster already here
  fi
  if [ -s "$dir/home" ]; then
    out=$(cat "$dir/home")
  else
    if as_pg test -x "$(dirname "$dir")"; then
      chown postgres: "$dir"
      if as_pg test -w "$dir"; then echo "$dir"; return 0; fi
    fi
    out=$PG_OUTSIDE/prode-pg-$(printf '%s' "$dir" | sha256sum | cut -c1-16)
    if [ -e "$out" ] || [ -L "$out" ]; then
      # Left by a state folder at this path that was deleted since: start over.
      pg_outside_ok "$out" || die "$out is in the way of $dir's PostgreSQL and not postgres's own (mode 700): remove it"
      if [ -s "$out/data/PG_VERSION" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$out/data" -m immediate -w stop >/dev/null 2>&1 || true
      fi
      rm -rf "$out"
    fi
  fi
  if [ ! -e "$out" ] && [ ! -L "$out" ]; then
    # Made by root as root's own, then given: nobody else can get in between.
    if ! { mkdir -m 700 "$out" && chown postgres: "$out"; }; then die "cannot make $out for $dir's PostgreSQL"; fi
    printf '%s\n' "$dir" >"$out/state-folder"   # for whoever looks in $PG_OUTSIDE: whose it is
  fi
  pg_outside_ok "$out" || die "$out (PostgreSQL of $dir) is not a folder of postgres's own with mode 700"
  printf '%s\n' "$out" >"$dir/home"
  log "postgres cannot reach $dir (a private folder above it): its cluster is in $out"
  echo "$out"
}

# pg_start DIR PORT: a throwaway cluster in HOME/data, socket in HOME, log in HOME/postgres.log,
# where HOME is DIR or, as root in a private folder, the folder outside that pg_place gives.
pg_start() {
  local dir=$1 port=$2 home
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  home=$(pg_place "$dir") || return 1
  touch "$home/postgres.log"   # written by both pg_ctl's caller and the server
  [ "$(id -u)" -ne 0 ] || chown postgres: "$home" "$home/postgres.log"
  as_pg test -w "$home" || die "user postgres cannot write $home (is a parent folder private?)"
  if [ ! -s "$home/data/PG_VERSION" ]; then
    logged "$home/postgres.log" as_pg "$PG_BIN/initdb" -D "$home/data" -U postgres --auth=trust -E UTF8 --no-sync
    # Speed over durability: the data is throwaway.
    cat >>"$home/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$home'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
EOF
  fi
  if as_pg "$PG_BIN/pg_ctl" -D "$home/data" status >/dev/null 2>&1; then
    return 0   # already running: keep it
  fi
  logged "$home/postgres.log" as_pg "$PG_BIN/pg_ctl" -D "$home/data" -l "$home/postgres.log" -w -t 30 -o "-p $port" start
}

pg_stop() {
  local home
  home=$(pg_home "$1")
  [ -s "$home/data/PG_VERSION" ] || return 0
  if as_pg "$PG_BIN/pg_ctl" -D "$home/data" status >/dev/null 2>&1; then
    logged "$home/postgres.log" as_pg "$PG_BIN/pg_ctl" -D "$home/data" -m fast -w stop
  fi
}

# pg_delete DIR: stops DIR's cluster and deletes it, with the folder outside if it has one.
pg_delete() {
  local dir=$1 home
  pg_stop "$dir"
  home=$(pg_home "$dir")
  if [ "$home" != "$dir" ] && pg_outside_ok "$home"; then rm -rf "$home"; fi
  rm -rf "$dir"
}

# pg_port DIR: the port of DIR's running cluster (from its postmaster.pid); fails if it is not running.
pg_port() {
  local home
  home=$(pg_home "$1")
  as_pg "$PG_BIN/pg_ctl" -D "$home/data" status >/dev/null 2>&1 && sed -n 4p "$home/data/postmaster.pid"
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
  if pid_alive "$dir/redis.pid" redis; then
    [ -s "$dir/port" ] && return 0   # already running: keep it
    redis_stop "$dir"   # started before it said its port: start again on the one asked for
  fi
  logged "$dir/redis.log" redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
    --daemonize yes --pidfile "$dir/redis.pid" --dir "$dir" --logfile "$dir/redis.log"
  echo "$port" >"$dir/port"
  local i
  for i in $(seq 50); do
    [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ] && return 0
    sleep 0.1
  done
  tail -n 20 "$dir/redis.log" >&2
  die "redis did not answer on port $port"
}

redis_stop() { stop_pidfile "$1/redis.pid" redis; }

# redis_port DIR: the port of DIR's running Redis; fails if it is not running.
redis_port() { pid_alive "$1/redis.pid" redis && [ -s "$1/port" ] && cat "$1/port"; }

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
# `make up`'s ports are fixed (a person opens http://localhost:8080/ and may point psql at
# 55432); the stacks of `make test` take free ones (stack_free_ports).
SERVICES=(players fixtures predictions scoring)
# shellcheck disable=SC2034 # the ports are for the scripts that source this file
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

# stack_free_ports: prints "PRODE_PORT=P PRODE_PG_PORT=P+1 PRODE_REDIS_PORT=P+2
# PRODE_SVC_PORT_BASE=P+2" with every port of such a stack free now (the services on P+3..P+6,
# their admin ports on P+1003..P+1006), for a stack of a test's own:
#   ports=$(stack_free_ports) && read -ra ports <<<"$ports" && env "${ports[@]}" dev/up.sh
stack_free_ports() {
  local p
  p=$(free_port 0 1 2 3 4 5 6 1003 1004 1005 1006) || return 1
  echo "PRODE_PORT=$p PRODE_PG_PORT=$((p + 1)) PRODE_REDIS_PORT=$((p + 2)) PRODE_SVC_PORT_BASE=$((p + 2))"
}
