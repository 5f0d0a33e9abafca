#!/usr/bin/env bash
# `make bench`: a World Cup at scale against the machine's own limits. Usage: dev/bench.sh [full|save|league|smoke|rush|scale|scale-smoke]
#   full   (default) a fresh stack of its own (port 8093, state in .bench/), 100,000 players × 64
#          predictions loaded with COPY, every benchmark beside its reference, docs/benchmarks.md
#          written from the run. About 15-25 minutes on two cores.
#   smoke  the same steps at a tiny scale and one short run each (free ports, state in
#          .test/bench-smoke/), report in .test/bench-smoke/benchmarks.md, checked for every row:
#          `make test` runs it so that the bench cannot rot. Its figures mean nothing.
#   save   POST a prediction against pgbench alone, after the full run's loads (same ports and
#          state as full; report in .bench/save.md): to rerun that one figure in 6 minutes.
#   league a league's table against nginx alone, the same way (report in .bench/league.md).
#   rush   `make soak`'s match-day rush alone (issue 6): 10,000 players with a session and 64
#          predictions each, saving predictions while others read the standings and a result is
#          scored, for RUSH_SECONDS (60) at RUSH_SAVE_RATE (300) saves and RUSH_READ_RATE (1000)
#          reads a second, with RUSH_PLAYERS (10000) players loaded (10,000 of them saving); report in .soak/rush.md (port 8095, state in .soak/rush/). Fails when
#          the errors reach 0.1 %, a p95 200 ms, or an acknowledged save is not in the database.
#   scale  `make bench-scale` (issue 20): one database grown to each of SCALE_PLAYERS ("100000
#          1000000 2000000") players in turn, each predicting the same 16 matches, every change of
#          a result, the full rescore, reads, SCALE_STREAMS (10000) open streams, memory and disk
#          measured at each size beside its reference; report in docs/benchmarks-scale.md (port 23093,
#          state in .bench/scale/). About an hour or more up to 2,000,000 players, and tens of GB
#          of disk (11 KB a player at 20,000, dead rows apart).
#   scale-smoke  the same at SCALE_PLAYERS="2000 4000", SCALE_STREAMS=50 (free ports, state in
#          .test/bench-scale-smoke/), checked for every row: so that the harness cannot rot.
# Overrides (full): BENCH_PLAYERS (100000), BENCH_DURATION (10s), BENCH_REPEATS (5).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=bench
cd "$ROOT"
mode=${1:-full}

case $mode in
  full)
    DIR=$ROOT/.bench OUT=$ROOT/docs/benchmarks.md REF_PORT=21090
    STACK_ENV=(PRODE_PORT=8093 PRODE_STATE_DIR="$DIR/stack" PRODE_PG_PORT=21432
               PRODE_REDIS_PORT=21379 PRODE_SVC_PORT_BASE=21080)
    ARGS=(-players "${BENCH_PLAYERS:-100000}" -streams "${BENCH_STREAMS:-10000}" -duration "${BENCH_DURATION:-10s}" -repeats "${BENCH_REPEATS:-5}")
    ;;
  save|league)
    DIR=$ROOT/.bench OUT=$ROOT/.bench/$mode.md REF_PORT=21090
    STACK_ENV=(PRODE_PORT=8093 PRODE_STATE_DIR="$DIR/stack" PRODE_PG_PORT=21432
               PRODE_REDIS_PORT=21379 PRODE_SVC_PORT_BASE=21080)
    ARGS=(-players "${BENCH_PLAYERS:-100000}" -duration "${BENCH_DURATION:-10s}" -repeats "${BENCH_REPEATS:-5}"
          -only "$mode" -command "dev/bench.sh $mode")
    ;;
  smoke)
    # Free ports, as every port of `make test` (dev/lib.sh free_port); the reference's is
    # chosen once the stack listens.
    DIR=$ROOT/.test/bench-smoke OUT=$ROOT/.test/bench-smoke/benchmarks.md REF_PORT=""
    ports=$(stack_free_ports) || die "no free ports"
    read -ra STACK_ENV <<<"$ports"
    STACK_ENV+=(PRODE_STATE_DIR="$DIR/stack")
    ARGS=(-players 2000 -sessions 2000 -streams 200 -rush-streams 50 -league-members 100 -duration 2s -repeats 1 -scoring-repeats 2
          -rescore-repeats 1 -web-runs 1 -profile 1s -command "dev/bench.sh smoke")
    ;;
  scale)
    DIR=$ROOT/.bench/scale OUT=$ROOT/docs/benchmarks-scale.md REF_PORT=23090
    STACK_ENV=(PRODE_PORT=23093 PRODE_STATE_DIR="$DIR/stack" PRODE_PG_PORT=23432
               PRODE_REDIS_PORT=23379 PRODE_SVC_PORT_BASE=23080)
    # The services run as in a container of the issue's 512 MiB: the chart tells every Go
    # container its memory limit (MEMORY_LIMIT), and so does this stack.
    STACK_ENV+=(PRODE_MEMORY_LIMIT=$((512 << 20)))
    ARGS=(-scale "${SCALE_PLAYERS:-100000 1000000 2000000}" -streams "${SCALE_STREAMS:-10000}" -stream-results 2
          -duration "${BENCH_DURATION:-10s}" -repeats "${BENCH_REPEATS:-3}" -scoring-repeats 1 -rescore-repeats 1
          -profile 0 -command "make bench-scale (dev/bench.sh scale)")
    ;;
  scale-smoke)
    DIR=$ROOT/.test/bench-scale-smoke OUT=$ROOT/.test/bench-scale-smoke/scale.md REF_PORT=""
    ports=$(stack_free_ports) || die "no free ports"
    read -ra STACK_ENV <<<"$ports"
    STACK_ENV+=(PRODE_STATE_DIR="$DIR/stack")
    ARGS=(-scale "2000 4000" -streams 50 -stream-results 1 -duration 1s -repeats 1 -scoring-repeats 1
          -rescore-repeats 1 -profile 0 -command "dev/bench.sh scale-smoke")
    ;;
  rush)
    DIR=$ROOT/.soak/rush OUT=$ROOT/.soak/rush.md REF_PORT=22090
    STACK_ENV=(PRODE_PORT=8095 PRODE_STATE_DIR="$DIR/stack" PRODE_PG_PORT=22432
               PRODE_REDIS_PORT=22379 PRODE_SVC_PORT_BASE=22080)
    ARGS=(-players "${RUSH_PLAYERS:-10000}" -sessions 10000 -rush-only -rush-duration "${RUSH_SECONDS:-60}s"
          -rush-save-rate "${RUSH_SAVE_RATE:-300}" -rush-read-rate "${RUSH_READ_RATE:-1000}"
          -command "make soak (dev/bench.sh rush)")
    ;;
  *) die "usage: dev/bench.sh [full|save|league|smoke|rush|scale|scale-smoke]" ;;
esac

ensure_packages chromium wrk
# The live-updates step (-streams) holds that many sockets open in the bench and in scoring, each
# needing a file descriptor: the soft limit up to the hard one (Go does it for itself, nginx and
# wrk do not); the bench opens fewer streams, and says so, when even that is too low.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# Every port below Linux's ephemeral range (32768-60999), where a test's random port or an
# outgoing connection could take it first. full and rush keep fixed ones (21080-22432, apart
# from `make up`'s and from those free_port draws), so that their reports name the same URLs.
# The services serve CPU profiles on their admin ports (PPROF): the report shows where their CPU went.
# The bench's players save many times faster than a person (the smoke run's 2,000 of them
# several times a second each): the per-session write limit (5/s, burst 20) still runs on every
# save, but never refuses one, which would count as an error.
export "${STACK_ENV[@]}" PRODE_PPROF=true PRODE_WRITE_RATE=1000/s PRODE_WRITE_BURST=1000
stack_config

cleanup() {
  nginx_stop "$DIR/reference" || true
  dev/down.sh || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "a fresh stack in $STATE"
dev/down.sh delete
rm -rf "$DIR"
dev/up.sh >/dev/null
[ -n "$REF_PORT" ] || REF_PORT=$(free_port)

# The reference: an nginx of its own serving, as files, the bytes the services answered.
mkdir -p "$DIR/static" "$DIR/reference"
cat >"$DIR/reference/site.conf" <<CONF
map \$request_id \$prode_request_id { default \$request_id; }
server {
  listen 127.0.0.1:$REF_PORT;
  keepalive_requests 1000000;
  root $DIR/static;
}
CONF
port_busy "$REF_PORT" && die "port $REF_PORT (reference nginx) is in use"
nginx_start "$DIR/reference"

db() { echo "postgres://$1@127.0.0.1:$PG_PORT/prode?sslmode=disable"; }
svc() { echo "http://127.0.0.1:$(svc_port "$1")"; }
# The bench is a module of its own, outside go.work (dev/bench/go.mod says why).
bench() { (cd dev/bench && GOWORK=off "$@"); }
if [ "$mode" = smoke ] || [ "$mode" = scale-smoke ]; then
  { bench go vet . && bench go test -count=1 .; } || die "dev/bench: vet or tests failed"
fi
bench go run . "${ARGS[@]}" \
  -state "$STATE" -work "$DIR/work" -static "$DIR/static" -web "$ROOT/web" -out "$OUT" \
  -database "$(db postgres)" -predictions-database "$(db prode_predictions)" -pgbench "$PG_BIN/pgbench" \
  -reference "http://127.0.0.1:$REF_PORT" -web-url "http://localhost:$PRODE_PORT/" \
  -fixtures "$(svc fixtures)" -predictions "$(svc predictions)" -scoring "$(svc scoring)" \
  -scoring-admin "http://127.0.0.1:$(svc_admin_port scoring)" \
  -fixtures-admin "http://127.0.0.1:$(svc_admin_port fixtures)" \
  -predictions-admin "http://127.0.0.1:$(svc_admin_port predictions)"

if [ "$mode" = smoke ]; then
  # Every row of the summary filled, and no request failed.
  rows=$(grep -c '^| .* | \(reached\|\*\*missed\*\*\) |$' "$OUT" || true)
  [ "$rows" -eq 11 ] || die "$OUT: $rows of 11 summary rows"
  ! grep -q 'Errors: [1-9]\|errors: [1-9]' "$OUT" || die "$OUT: some requests failed (see it)"
  log "smoke run ok: $OUT"
elif [ "$mode" = scale-smoke ]; then
  # Both sizes measured to the end, every goal judged, and no request failed.
  sizes=$(grep -c '^| [0-9,]* | +[0-9,]* in ' "$OUT" || true)
  [ "$sizes" -eq 2 ] || die "$OUT: $sizes of 2 sizes measured"
  goals=$(grep -c '^| .* | \(reached\|\*\*missed\*\* by [0-9.]*×\) |$' "$OUT" || true)
  [ "$goals" -eq 9 ] || die "$OUT: $goals of 9 goals judged"
  ! grep -q 'Errors: [1-9]' "$OUT" || die "$OUT: some requests failed (see it)"
  log "scale smoke run ok: $OUT"
else
  log "wrote $OUT"
fi
