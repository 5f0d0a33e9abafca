#!/usr/bin/env bash
# The chart step of `make test` (also `make test-chart`): the Helm chart checked by helm itself and
# installed on a real Kubernetes API server.
#
#   1. installs what is missing, cached in $TOOLS (dev/lib.sh, dev/chart-tools.sh): helm, etcd,
#      kube-apiserver (the first run builds helm and kube-apiserver: about 8 minutes);
#   2. starts a throwaway etcd and kube-apiserver on free loopback ports (state in .test/chart/,
#      deleted at the end; no kubelet, no controllers: nothing ever runs in a pod);
#   3. runs the Go tests of dev/charttest/ against them: helm lint --strict, the rendered
#      manifests (requests/limits, PDBs, NetworkPolicies, security contexts, probes and grace
#      periods, hooks), the PostgreSQL connection budget at the autoscalers' maxima (and its
#      refusals) and PgBouncer's routing, the Ingress against the local nginx's routes and the
#      HTTPRoute against the Ingress, helm install/upgrade/test in namespaces that enforce Pod
#      Security "restricted" with zero warnings (the Gateway API's HTTPRoute CRD installed), Secrets that
#      roll the pods when they change and outlive an uninstall, the Grafana dashboard, and
#      skaffold.yaml. (The PrometheusRule's alerts have a step of their own: dev/test-alerts.sh.)
#
# Env: CHART_TEST_RUN=regexp runs only the matching Go tests (go test -run).
#      SKAFFOLD_BUILD=1 also builds skaffold (about 9 minutes, once) so that skaffold.yaml is
#      checked by `skaffold render --offline` besides the artifact checks. `make test` builds it
#      in the background (dev/test.sh), so from a machine's second run on, that check runs too.
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=dev/chart-tools.sh
source "$ROOT/dev/chart-tools.sh"
LOG_PREFIX=test-chart
cd "$ROOT"

# curl waits for the API server, openssl makes its service-account keys; dpkg-deb and
# apt-get unpack etcd.
missing=()
for cmd in curl openssl; do command -v "$cmd" >/dev/null || missing+=("$cmd"); done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || die "missing: ${missing[*]}; run: sudo apt-get install -y ${missing[*]}"
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" </dev/null >&2
fi

# ensure_gateway_crds: sets GATEWAY_CRDS, the Gateway API's standard-channel CRDs, from its Go
# module like the Prometheus Operator's (dev/chart-tools.sh): gateway.enabled renders an
# HTTPRoute, and the API server validates it against the real schema. v1.6.3: the newest
# release whose module this Go (1.26) accepts (v1.7.0 requires go 1.27).
GATEWAY_API_VERSION=v1.6.3
ensure_gateway_crds() {
  local dir
  dir=$(module_dir "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION") || die "cannot download the Gateway API's module"
  GATEWAY_CRDS=$dir/config/crd/standard
  [ -f "$GATEWAY_CRDS/gateway.networking.k8s.io_httproutes.yaml" ] || die "no Gateway API CRDs in $GATEWAY_CRDS"
}

ensure_helm
ensure_etcd
ensure_kube_apiserver
ensure_operator_crds
ensure_gateway_crds
if [ "${SKAFFOLD_BUILD:-}" = 1 ] || [ -x "$TOOLS/skaffold-$SKAFFOLD_VERSION/skaffold" ]; then
  ensure_skaffold || log "skaffold did not build; skaffold.yaml gets the artifact checks only"
fi

# --- A throwaway API server -------------------------------------------------------------------
STATE=$ROOT/.test/chart
stop_cluster() {
  stop_pidfile "$STATE/kube-apiserver.pid" kube-apiserver
  stop_pidfile "$STATE/etcd.pid" etcd
}
# A previous run killed hard may have left its processes: stop them before deleting their state.
stop_cluster
rm -rf "$STATE" "$ROOT/.test/chart-test-apiserver.log"; mkdir -p "$STATE/certs"
trap 'stop_cluster; rm -rf "$STATE"' EXIT
trap 'exit 130' INT TERM

# Ports drawn at random (free_port, dev/lib.sh), not the first free ones from a fixed start: two
# checkouts whose chart steps start together (both had waited for the same Kubernetes build)
# once both took 23379 and 23380, and the second etcd could not bind.
etcd_port=$(free_port 0 1) || die "no free ports for etcd"
peer_port=$((etcd_port + 1))
log "etcd on 127.0.0.1:$etcd_port"
# Its own client and peer ports and data dir: never the default 2379/2380 of a system etcd.
"$ETCD" --name prode-test --data-dir "$STATE/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
  --initial-cluster "prode-test=http://127.0.0.1:$peer_port" --log-level warn \
  </dev/null >"$STATE/etcd.log" 2>&1 &
echo $! >"$STATE/etcd.pid"

# The service-account signing key pair and one admin token (group system:masters).
openssl genrsa -out "$STATE/sa.key" 2048 2>/dev/null
openssl rsa -in "$STATE/sa.key" -pubout -out "$STATE/sa.pub" 2>/dev/null
token=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
echo "$token,admin,admin,system:masters" >"$STATE/tokens.csv"

api_port=$(free_port) || die "no free port for kube-apiserver"
log "kube-apiserver $K8S_VERSION on 127.0.0.1:$api_port"
"$KUBE_APISERVER" --etcd-servers "http://127.0.0.1:$etcd_port" --cert-dir "$STATE/certs" \
  --secure-port "$api_port" --bind-address 127.0.0.1 --service-cluster-ip-range 10.0.0.0/24 \
  --service-account-key-file "$STATE/sa.pub" --service-account-signing-key-file "$STATE/sa.key" \
  --service-account-issuer https://kubernetes.default.svc \
  --token-auth-file "$STATE/tokens.csv" --authorization-mode RBAC \
  </dev/null >"$STATE/kube-apiserver.log" 2>&1 &
echo $! >"$STATE/kube-apiserver.pid"

deadline=$((SECONDS + 60))
until curl -ksf -H "Authorization: Bearer $token" "https://127.0.0.1:$api_port/readyz" >/dev/null; do
  if ! pid_alive "$STATE/kube-apiserver.pid" || ! pid_alive "$STATE/etcd.pid" || [ $SECONDS -ge $deadline ]; then
    tail -n 30 "$STATE/etcd.log" "$STATE/kube-apiserver.log" >&2
    die "the API server did not become ready"
  fi
  sleep 0.5
done
log "API server ready"

# 0600: helm warns about a group- or world-readable kubeconfig, and this test allows no warning.
(umask 077 && cat >"$STATE/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: test
    cluster: {server: "https://127.0.0.1:$api_port", insecure-skip-tls-verify: true}
users:
  - name: admin
    user: {token: "$token"}
contexts:
  - name: test
    context: {cluster: test, user: admin}
current-context: test
EOF
)

# --- The tests --------------------------------------------------------------------------------
# dev/charttest is its own module (Kubernetes client libraries), outside go.work so that none of
# its dependencies ever changes the services' builds: GOWORK=off.
set +e
(
  set -e
  cd dev/charttest
  export GOWORK=off KUBECONFIG="$STATE/kubeconfig" HELM OPERATOR_CRDS GATEWAY_CRDS REPO_ROOT="$ROOT"
  export HELM_CACHE_HOME="$STATE/helm/cache" HELM_CONFIG_HOME="$STATE/helm/config" HELM_DATA_HOME="$STATE/helm/data"
  export SKAFFOLD="${SKAFFOLD:-}"
  go vet ./... && go test -count=1 -timeout 15m -v ${CHART_TEST_RUN:+-run "$CHART_TEST_RUN"} ./...
) >"$ROOT/.test/chart-test.log" 2>&1
status=$?
if [ "$status" -eq 0 ]; then
  # Passed: the list of tests is enough (the full output stays in .test/chart-test.log).
  grep -E '^\s*--- (PASS|SKIP)|^ok' "$ROOT/.test/chart-test.log" >&2
else
  cat "$ROOT/.test/chart-test.log" >&2
  cp "$STATE/kube-apiserver.log" "$ROOT/.test/chart-test-apiserver.log"
  log "failed; output in .test/chart-test.log, the API server's log in .test/chart-test-apiserver.log"
fi
exit "$status"
