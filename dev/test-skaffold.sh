#!/usr/bin/env bash
# `skaffold dev` on the one-node cluster (make test-skaffold): how long one saved Go file and one
# saved web file take to be live through the ingress. It runs in a copy of the tracked files
# (.test/skaffold/src), so the edits never touch the checkout, with skaffold.yaml's "cluster"
# profile (images pushed to the cluster's registry, values-cluster.yaml, Traefik on :8880).
# Appends its figures to .test/cluster/report.md. Needs root, like the cluster.
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=dev/chart-tools.sh
source "$ROOT/dev/chart-tools.sh"
LOG_PREFIX=test-skaffold
cd "$ROOT"

URL=http://localhost:8880
OUT=$ROOT/.test/skaffold
SRC=$OUT/src
REPORT=$ROOT/.test/cluster/report.md
LOCK=/run/lock/prode-cluster.lock
[ "$(id -u)" -eq 0 ] || die "skaffold dev on the cluster needs root (dev/cluster.sh)"
mkdir -p "$OUT" "$(dirname "$REPORT")" /run/lock
exec 9>"$LOCK"
flock -w 3600 9 || die "the machine's cluster stayed busy for 60 minutes"

ensure_skaffold || die "skaffold did not build"
ensure_kubernetes; ensure_helm
started_cluster=""
dev/cluster.sh status || { dev/cluster.sh up >/dev/null; started_cluster=1; }
# Make sure the stand-ins the cluster profile names exist.
dev/images.sh standins

skaffold_pid=""
cleanup() {
  [ -z "$skaffold_pid" ] || { kill -INT "$skaffold_pid" 2>/dev/null; wait "$skaffold_pid" 2>/dev/null || true; }
  if [ -z "${CLUSTER_KEEP:-}" ] && [ -n "$started_cluster" ]; then dev/cluster.sh down || true; fi
}
trap cleanup EXIT

rm -rf "$SRC"; mkdir -p "$SRC"
git ls-files -z | xargs -0 cp --parents -t "$SRC"
# skaffold runs helm and kubectl from PATH, and Debian's docker client (BuildKit without buildx).
PATH=/usr/bin:$K8S_BIN:$(dirname "$HELM"):$PATH
export PATH
export KUBECONFIG=$ROOT/.cluster/kubeconfig

# deployed_tag COMPONENT: the image tag its Deployment runs, once the rollout is complete.
deployed_tag() {
  kubectl -n prode rollout status deploy -l "app.kubernetes.io/component=$1" --timeout=1s >/dev/null 2>&1 || return 1
  kubectl -n prode get deploy -l "app.kubernetes.io/component=$1" -o jsonpath='{.items[0].spec.template.spec.containers[0].image}'
}

t0=$SECONDS
(cd "$SRC" && exec "$SKAFFOLD" dev --default-repo localhost:5000 --port-forward=false \
   --status-check=true --cleanup=true) >"$OUT/skaffold.log" 2>&1 &
skaffold_pid=$!
deadline=$((SECONDS + 900))
until grep -q 'Press Ctrl+C to exit' "$OUT/skaffold.log" && curl -fsS -o /dev/null "$URL/api/partidos-sin-jugar"; do
  kill -0 "$skaffold_pid" 2>/dev/null || { tail -30 "$OUT/skaffold.log" >&2; die "skaffold dev stopped"; }
  [ $SECONDS -lt $deadline ] || { tail -30 "$OUT/skaffold.log" >&2; die "skaffold dev not up in 15 minutes"; }
  sleep 2
done
report_line="- skaffold dev: first deploy live in $((SECONDS - t0)) s"

# One Go file: a comment in the fixtures service's routes. Live = its Deployment runs a new image
# and the match list answers through the ingress.
before=$(deployed_tag fixtures)
log_lines=$(wc -l <"$OUT/skaffold.log")
t0=$SECONDS
echo "// edited by dev/test-skaffold.sh at $(date +%s)" >>"$SRC/services/fixtures/internal/http/routes.go"
deadline=$((SECONDS + 600))
until now=$(deployed_tag fixtures) && [ "$now" != "$before" ] && curl -fsS -o /dev/null "$URL/api/partidos-sin-jugar"; do
  [ $SECONDS -lt $deadline ] || { tail -30 "$OUT/skaffold.log" >&2; die "the Go edit was not live in 10 minutes"; }
  sleep 1
done
go_live=$((SECONDS - t0))
# Only the fixtures image may rebuild: each Go image copies its own module and platform alone.
rebuilt=$(tail -n +"$((log_lines + 1))" "$OUT/skaffold.log" | grep -o 'Building \[prode-[a-z]*\]' | sort -u | tr '\n' ' ')
[ "$rebuilt" = "Building [prode-fixtures] " ] || die "a fixtures edit rebuilt: $rebuilt"

# One web file: a marker in index.html, live when the ingress serves it.
marker="live-$(date +%s)"
t0=$SECONDS
sed -i "s|</head>|<meta name=\"prode-edit\" content=\"$marker\"></head>|" "$SRC/web/index.html"
deadline=$((SECONDS + 600))
until curl -fsS "$URL/" | grep -q "$marker"; do
  [ $SECONDS -lt $deadline ] || { tail -30 "$OUT/skaffold.log" >&2; die "the web edit was not live in 10 minutes"; }
  sleep 1
done
web_live=$((SECONDS - t0))
echo "$report_line; a Go file saved -> live in $go_live s (only prode-fixtures rebuilt); a web file saved -> live in $web_live s" >>"$REPORT"
log "$report_line; Go edit live in $go_live s (only prode-fixtures rebuilt); web edit live in $web_live s"
