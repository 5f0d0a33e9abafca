# shellcheck shell=bash
# The cluster test's Prometheus: a real one (Debian's binary, dev/cluster/standins/
# prometheus.Dockerfile, pushed by dev/images.sh) in namespace "monitoring", scraping every pod
# of the release's Go services (found through headless Services: kubernetes.yaml,
# prometheus.yml) and evaluating the chart's alerting rules; read through the API server's
# service proxy, so that nothing but kubectl reaches it. Sourced by dev/test-cluster.sh, whose
# kubectl, report, die, NS and VALUES it uses.
PROMETHEUS_IMAGE=localhost:5000/prode-deps/prometheus:2
PROMETHEUS_DIR=$ROOT/dev/cluster/prometheus
PROMETHEUS_SERVICES=(players fixtures predictions scoring)

# prometheus_install: a fresh Prometheus scraping the Go services' pods in $NS (which must exist:
# the headless Services live there), with the alerting rules the chart renders for $NS.
prometheus_install() {
  if kubectl get namespace monitoring >/dev/null 2>&1; then
    kubectl delete namespace monitoring --wait --timeout=180s >/dev/null
  fi
  local config rules
  config=$(mktemp) rules=$(mktemp)
  sed -e "s|@NAMESPACE@|$NS|g" "$PROMETHEUS_DIR/prometheus.yml" >"$config"
  "$ROOT/dev/alerts/render-rules.sh" "$NS" "${VALUES[@]}" >"$rules" || die "could not render the chart's alerting rules"
  {
    sed -e "s|@NAMESPACE@|$NS|g" -e "s|@IMAGE@|$PROMETHEUS_IMAGE|g" "$PROMETHEUS_DIR/kubernetes.yaml"
    echo ---
    kubectl -n monitoring create configmap prometheus --from-file=prometheus.yml="$config" \
      --from-file=rules.yml="$rules" --dry-run=client -o yaml
  } | kubectl apply -f - >/dev/null
  rm -f "$config" "$rules"
  kubectl -n monitoring rollout status deploy/prometheus --timeout=180s >/dev/null \
    || die "Prometheus did not become ready (kubectl -n monitoring logs deploy/prometheus)"
}

# prometheus_api PATH: GET PATH of Prometheus's HTTP API (e.g. "targets").
prometheus_api() {
  kubectl get --raw "/api/v1/namespaces/monitoring/services/prometheus:web/proxy/api/v1/$1"
}

# prometheus_query PROMQL: the result of an instant query (JSON: [{metric, value}, ...]).
prometheus_query() {
  local q
  q=$(jq -rn --arg q "$1" '$q | @uri')
  prometheus_api "query?query=$q" | jq -c .data.result
}

# prometheus_check: what an operator's Prometheus would see after the load of the upgrade:
#   - every running pod of the four Go services is a target, and up (within 90 s: discovery
#     follows the pods the upgrade just replaced);
#   - each service's request rate over the last 5 minutes has a series, above 0 (the browser
#     scenario and the upgrade's load went through all four), and scoring reports its outbox lag;
#   - the chart's alerting rules evaluate on these real series without an error.
prometheus_check() {
  local pods up missing deadline=$((SECONDS + 90)) svc rates rate lag errors summary=""
  # "ADDRESS NAME" of each running pod (the targets are pod addresses: DNS knows no names).
  pods=$(kubectl -n "$NS" get pod -l "app.kubernetes.io/component in ($(IFS=,; echo "${PROMETHEUS_SERVICES[*]}"))" -o json \
    | jq -r '.items[] | select(.metadata.deletionTimestamp == null and .status.phase == "Running") | "\(.status.podIP):9090 \(.metadata.name)"' | LC_ALL=C sort)
  [ -n "$pods" ] || die "no running pod of the Go services in $NS"
  while :; do
    up=$(prometheus_api 'targets?state=active' \
      | jq -r '.data.activeTargets[] | select(.health == "up") | .labels.instance' | LC_ALL=C sort -u)
    missing=$(LC_ALL=C join -v 1 <(echo "$pods") <(echo "$up") | awk '{ print $2 }')
    [ -n "$missing" ] || break
    [ $SECONDS -lt $deadline ] || die "Prometheus does not scrape these pods (or they are down): $(paste -sd ' ' <<<"$missing")"
    sleep 2
  done

  rates=$(prometheus_query "sum by (service) (rate(prode_http_requests_total{namespace=\"$NS\"}[5m]))" \
    | jq -r '.[] | "\(.metric.service) \(.value[1])"')
  for svc in "${PROMETHEUS_SERVICES[@]}"; do
    rate=$(awk -v s="$svc" '$1 == s { print $2 }' <<<"$rates")
    [ -n "$rate" ] || die "Prometheus has no request rate of $svc: no prode_http_requests_total{namespace=\"$NS\", service=\"$svc\"}"
    awk -v r="$rate" 'BEGIN { exit !(r > 0) }' || die "Prometheus says $svc answered nothing in the last 5 minutes (rate $rate)"
    summary+="$svc $(printf '%.1f' "$rate"), "
  done
  lag=$(prometheus_query "max(prode_scoring_outbox_lag_seconds{namespace=\"$NS\"})" | jq -r '.[0].value[1] // empty')
  [ -n "$lag" ] || die "Prometheus has no prode_scoring_outbox_lag_seconds of scoring in $NS"

  errors=$(prometheus_api rules | jq -r '.data.groups[].rules[] | select(.health != "ok") | "\(.name): \(.lastError)"')
  [ -z "$errors" ] || die "the chart's alerting rules fail on the scraped series: $errors"
  report "- Prometheus (Debian's, pods found through DNS) scraped all $(wc -l <<<"$pods") Go service pods; requests/s over the last 5 minutes: ${summary%, }; scoring's outbox lag: $lag s; the chart's $(prometheus_api rules | jq '[.data.groups[].rules[]] | length') alerting rules evaluate"
}
