#!/usr/bin/env bash
# Every test on real components. Usage: dev/test.sh [all|lint|go|vet|web|e2e]   (default all)
#   all  the Go format and lint gate (dev/lint-go.sh), the shell lint gate (dev/lint-shell.sh), routes, the Helm chart (dev/test-chart.sh),
#        the alerts (dev/test-alerts.sh: promtool test rules on the chart's PrometheusRule), then
#        per Go module go vet + go test -race,
#        then web unit tests, then end-to-end
#   lint gofmt -l and golangci-lint over every Go module (dev/lint-go.sh; .golangci.yml), and
#        ShellCheck over every shell script (dev/lint-shell.sh; .shellcheckrc)
#   go   the Go modules only (vet + test), against a throwaway PostgreSQL and Redis (dev/test-env.sh)
#   vet  go vet of each Go module
#   web  the web app's unit tests
#   e2e  the end-to-end suite against a full stack of its own (free ports, state in .test/stack)
#   (all also runs `dev/bench.sh smoke` and `dev/bench.sh scale-smoke`: make bench's and make
#   bench-scale's steps at a tiny scale, so that they cannot rot; after each change of a result a
#   watched player's place must show the points the bare SQL computes;
#   dev/test-private-folder.sh: `make up` from a checkout inside a private folder, and, as root,
#   dev/test-cluster.sh: the chart installed, upgraded and rolled back on a real one-node Kubernetes)
# Every port is chosen free at run time (dev/lib.sh free_port): two checkouts test at once.
# Each step passes or fails on its own; all run, and the last line is "N passed, M failed".
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX="test"
cd "$ROOT"
what=${1:-all}
MODULES=(migrations services/platform services/players services/fixtures services/predictions services/scoring)
# The e2e stack: free ports (e2e adds them), so it runs beside `make up` and other checkouts'
# tests. Debug logs: a line for every request, so that dev/check-logs.sh looks for secrets in all of them.
# Every e2e file signs its people in from 127.0.0.1: a sign-in limit of the production default
# (10/min, burst 10) ran out once the suite grew past forty sign-ins in three minutes.
E2E_ENV=(PRODE_STATE_DIR="$ROOT/.test/stack" PRODE_LOG_LEVEL=debug PRODE_SIGNIN_RATE=120/min PRODE_SIGNIN_BURST=60)

test_env="" e2e_stack="" prebuild=""
cleanup() {
  if [ -n "$prebuild" ]; then kill -- "-$prebuild" 2>/dev/null || true; fi
  if [ -n "$test_env" ]; then dev/test-env.sh stop || true; fi
  if [ -n "$e2e_stack" ]; then env "${E2E_ENV[@]}" dev/down.sh || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM   # exit (and so clean up) once the running step returns

go_module() {   # go_module DIR [vet-only]
  [ -f "$1/go.mod" ] || { log "$1/go.mod is missing"; return 1; }
  (cd "$1" && go vet ./... && { [ -n "${2:-}" ] || go test -race -count=1 ./...; })
}

start_test_env() {
  local exports
  exports=$(dev/test-env.sh) || die "could not start the test PostgreSQL/Redis"
  test_env=1
  eval "$exports"
}

# ESLint first (types, hooks, import boundaries: web/eslint.config.js), then vitest.
web_unit() { (cd web && npm ci --no-audit --no-fund && npm run lint && npm test); }

e2e() {
  # A fresh stack each run: the suite starts from the seeded fixtures and no players.
  env "${E2E_ENV[@]}" dev/down.sh delete || return 1
  local ports url
  ports=$(stack_free_ports) && read -ra ports <<<"$ports" || return 1
  E2E_ENV+=("${ports[@]}")
  e2e_stack=1
  url=$(env "${E2E_ENV[@]}" dev/up.sh) || return 1
  (cd web && PRODE_URL=${url#Prode: } CHROMIUM_PATH=$(command -v chromium) npm run e2e) \
    || { log "service logs: .test/stack/logs/"; return 1; }
  # With the traffic of the e2e run on them, every service's metrics must pass promtool.
  env "${E2E_ENV[@]}" dev/check-metrics.sh || return 1
  # No token, code or cookie in any log line; every API error traceable by its request id.
  dev/check-logs.sh .test/stack || return 1
  env "${E2E_ENV[@]}" dev/down.sh delete && e2e_stack=""
}

# The cluster step's own tools (CoreDNS, the registry, Traefik and vegeta: about 20 minutes of
# compiling on a machine that never built them) are built from the start, in the background at
# the lowest CPU and I/O priority: they take what the steps before leave idle (a third of the CPU
# during e2e and the bench smokes), and the cluster step finds them built, or waits for the one
# still building (each has its own lock: tools_build). A machine that has them builds nothing.
# skaffold comes last (about 9 minutes, nothing waits for it): from the second run on a machine,
# the chart step finds it and checks skaffold.yaml with `skaffold render` (TestSkaffoldRender).
prebuild_cluster_tools() {
  mkdir -p .test
  log "building the cluster's tools in the background (nice 19): .test/prebuild-tools.log"
  # setsid: a process group of its own, which cleanup stops whole (the go builds with it).
  LOG_PREFIX=prebuild setsid nice -n 19 ionice -c 3 bash -c 'source dev/lib.sh && source dev/chart-tools.sh &&
    ensure_coredns && ensure_registry && ensure_traefik && ensure_vegeta && log "done in $SECONDS s" &&
    { ensure_skaffold || log "skaffold did not build: the chart step checks skaffold.yaml without it"; }' \
    >.test/prebuild-tools.log 2>&1 </dev/null &
  prebuild=$!
}

has_web() { [ -f web/package.json ]; }
has_e2e() { has_web && [ -d web/e2e ]; }

case $what in
  all)
    if has_e2e; then ensure_packages gcc pgbouncer chromium; else ensure_packages gcc pgbouncer; fi
    if [ "$(id -u)" -eq 0 ]; then prebuild_cluster_tools; fi
    step "go lint" dev/lint-go.sh   # first: a formatting or import slip shows in minutes
    step "shell lint" dev/lint-shell.sh
    step routes env ROUTES_TEST_PORT="$(free_port 0 1 2 3 4 5 6 7 8)" dev/test-routes.sh
    step chart dev/test-chart.sh
    step alerts dev/test-alerts.sh
    step "private folder" dev/test-private-folder.sh
    start_test_env
    for m in "${MODULES[@]}"; do step "go $m" go_module "$m"; done
    if has_web; then step "web lint and unit" web_unit; fi
    if has_e2e; then step e2e e2e; fi
    if has_e2e; then step "bench smoke" dev/bench.sh smoke; fi
    if has_e2e; then step "bench-scale smoke" dev/bench.sh scale-smoke; fi
    # The chart on a real one-node Kubernetes (dev/cluster.sh): kubelet, containerd and
    # iptables need root, which CI is.
    if [ "$(id -u)" -eq 0 ]; then step cluster dev/test-cluster.sh
    else log "skipping the cluster test: it needs root (sudo make test-cluster)"; fi
    ;;
  go)
    ensure_packages gcc pgbouncer
    start_test_env
    for m in "${MODULES[@]}"; do step "go $m" go_module "$m"; done
    ;;
  lint) step "go lint" dev/lint-go.sh; step "shell lint" dev/lint-shell.sh ;;
  vet) for m in "${MODULES[@]}"; do step "vet $m" go_module "$m" vet-only; done ;;
  web) if has_web; then step "web lint and unit" web_unit; else log "no web/package.json"; fi ;;
  e2e)
    has_e2e || die "no web/e2e"
    ensure_packages chromium
    step e2e e2e
    ;;
  *) die "usage: dev/test.sh [all|lint|go|vet|web|e2e]" ;;
esac

cleanup; trap - EXIT   # now, so the summary below is the last line of the output
steps_summary
