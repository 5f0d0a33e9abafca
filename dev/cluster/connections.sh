# shellcheck shell=bash
# The cluster test's connection budget step: every Go service held at its autoscaler's maximum
# (dev/cluster/connections-values.yaml: values-production.yaml's maxima and pools), PostgreSQL
# started with exactly the chart's own count of connections plus the reserve, then a load that
# fills the pools while every service pod is replaced (one more pod of each starting and one
# draining at a time: the rolling update the count includes). Passes when no connection was refused (PostgreSQL's,
# PgBouncer's and the services' logs), no request failed (the load's answers, the services'
# 5xx metrics) and PostgreSQL never saw more client backends than the chart counted.
# Sourced by dev/test-cluster.sh, whose kubectl, helm, report, die, log, sign_in, NS, RELEASE,
# VALUES, URL, OUT, VEGETA and TAG_A it uses.
CONNECTIONS_VALUES=$ROOT/dev/cluster/connections-values.yaml
CONNECTIONS_SERVICES=(players fixtures predictions scoring)
# Concurrent requests: several per pod, so that each pool is wanted whole.
CONNECTIONS_WORKERS=${CLUSTER_CONNECTIONS_WORKERS:-150}
# A refused or failed connection, as PostgreSQL, PgBouncer and pgx word it.
# (PgBouncer's refusal is "no more connections allowed (max_client_conn)": max_client_conn alone
# also stands in its start-up line.)
CONNECTIONS_REFUSED='too many clients|remaining connection slots|SQLSTATE 53300|no more connections allowed|pooler error|server login has been failing|query_wait_timeout|failed to connect|connection refused'

# chart_count KIND ARGS...: what the chart says the release may open, read from its own refusal
# when given no room: KIND "postgres" (to PostgreSQL) or "clients" (to PgBouncer).
chart_count() {
  local kind=$1 out; shift
  local room=(--set postgresql.maxConnections=11 --set postgresql.reservedConnections=10)
  [ "$kind" = postgres ] || room=(--set postgresql.maxConnections=100000 --set pgbouncer.maxClientConn=1)
  out=$(helm template "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" -f "$CONNECTIONS_VALUES" "$@" "${room[@]}" 2>&1 >/dev/null) \
    && die "the chart rendered with no room for connections"
  case $kind in
    postgres) sed -n 's/.*PostgreSQL connections: .* may open \([0-9]*\) (.*/\1/p' <<<"$out" ;;
    clients) sed -n 's/.*PgBouncer clients: .* may open \([0-9]*\) connections.*/\1/p' <<<"$out" ;;
  esac
}

# connections_at_the_maxima NAME [HELM ARGS...]: the step, once (NAME labels its files).
connections_at_the_maxima() {
  local name=$1; shift
  local count clients="" args t0 start pg_pod bouncer="" sampler follower
  count=$(chart_count postgres "$@")
  [ -n "$count" ] || die "could not read the chart's connection count"
  args=("$@" --set "postgresql.maxConnections=$((count + 10))" --set postgresql.reservedConnections=10)
  if [[ " $* " == *" pgbouncer.enabled=true "* ]]; then
    clients=$(chart_count clients "$@")
    [ -n "$clients" ] || die "could not read the chart's count of PgBouncer clients"
    args+=(--set "pgbouncer.maxClientConn=$clients")
    bouncer=pgbouncer
  fi

  # --- every service at its maximum, PostgreSQL at the chart's count + 10 ----------------------
  t0=$SECONDS
  helm upgrade "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" -f "$CONNECTIONS_VALUES" "${args[@]}" \
    --set image.tag="$TAG_A" --wait --timeout 10m >/dev/null
  local d deadline=$((SECONDS + 300)) want ready pods=""
  for d in "${CONNECTIONS_SERVICES[@]}"; do
    want=$(kubectl -n "$NS" get hpa "$RELEASE-$d" -o jsonpath='{.spec.maxReplicas}')
    until ready=$(kubectl -n "$NS" get deploy "$RELEASE-$d" -o jsonpath='{.status.readyReplicas}') && [ "${ready:-0}" = "$want" ]; do
      [ $SECONDS -lt $deadline ] || die "$d: ${ready:-0} of its $want pods ready after 5 minutes"
      sleep 2
    done
    pods+="$d $want, "
  done
  # The upgrade restarts PostgreSQL when it changes max_connections, and every scoring pod's
  # outbox listener (application_name scoring.ListenerName, always straight to PostgreSQL) then
  # reconnects with backoff, logging each attempt that fails, which the check below counts: the
  # load starts once every one of them is back.
  pg_pod=$(kubectl -n "$NS" get pod -l app.kubernetes.io/component=postgresql -o name | head -1)
  want=$(kubectl -n "$NS" get hpa "$RELEASE-scoring" -o jsonpath='{.spec.maxReplicas}')
  local listening=""
  until listening=$(kubectl -n "$NS" exec "$pg_pod" -- psql -XtA -U postgres -d prode -c \
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'prode-scoring-listener'" 2>/dev/null) &&
      [ "$listening" = "$want" ]; do
    [ $SECONDS -lt $deadline ] || die "scoring: ${listening:-0} of its $want outbox listeners on PostgreSQL after 5 minutes"
    sleep 2
  done
  local bouncer_count=""
  [ -z "$clients" ] || bouncer_count="; PgBouncer's max_client_conn $clients = the chart's count of its clients"
  report "- connections, $name: every service at its maximum (${pods%, } pods) in $((SECONDS - t0)) s; PostgreSQL's max_connections $((count + 10)) = the chart's count $count + 10 reserved$bouncer_count"

  # --- the load, and every pod replaced under it ------------------------------------------------
  local player cookie
  player=conexiones-$name-$(date +%s)@prode.test
  cookie=$(sign_in "$player" "Conexiones $name")
  cat >"$OUT/connections-targets.txt" <<EOF
GET $URL/api/sesion
Cookie: $cookie

GET $URL/api/partidos
Cookie: $cookie

GET $URL/api/jugadores/$player/apuestas
Cookie: $cookie

GET $URL/api/resultados
Cookie: $cookie

GET $URL/api/jugadores/$player/apuestas
Cookie: $cookie

EOF
  start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  # PostgreSQL's client backends every second (this sampler's own excluded), by role.
  local sql="SELECT count(*), count(*) FILTER (WHERE usename = 'prode_players'),
    count(*) FILTER (WHERE usename = 'prode_fixtures'), count(*) FILTER (WHERE usename = 'prode_predictions'),
    count(*) FILTER (WHERE usename = 'prode_scoring') FROM pg_stat_activity
    WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
  kubectl -n "$NS" exec "$pg_pod" -- env SQL="$sql" sh -c 'rm -f /tmp/stop-sampling
    while [ ! -e /tmp/stop-sampling ]; do psql -XtA -F" " -U postgres -d prode -c "$SQL"; sleep 1; done' \
    >"$OUT/connections-$name-samples.txt" 2>&1 &
  sampler=$!
  # The logs of the pods about to be replaced, while they live.
  local selector
  selector="app.kubernetes.io/component in ($(IFS=,; echo "${CONNECTIONS_SERVICES[*]}")${bouncer:+,$bouncer})"
  kubectl -n "$NS" logs -f --prefix --since=1s --max-log-requests 100 -l "$selector" >"$OUT/connections-$name-replaced.log" 2>&1 &
  follower=$!
  "$VEGETA" attack -targets "$OUT/connections-targets.txt" -rate 0 -max-workers "$CONNECTIONS_WORKERS" -duration 0 \
    -timeout 30s -max-body 0 -output "$OUT/connections-$name.bin" &
  load_pid=$!
  sleep 10
  t0=$SECONDS
  kubectl -n "$NS" rollout restart deploy -l "$selector" >/dev/null
  for d in "${CONNECTIONS_SERVICES[@]}" $bouncer; do
    kubectl -n "$NS" rollout status deploy "$RELEASE-$d" --timeout=10m >/dev/null || die "$d did not roll out under load"
  done
  local rolled=$((SECONDS - t0))
  sleep 10
  kill -INT "$load_pid"; wait "$load_pid" || true; load_pid=""
  # (The follower may have ended with the last of the pods it followed.)
  kill "$follower" 2>/dev/null || true; wait "$follower" 2>/dev/null || true
  kubectl -n "$NS" exec "$pg_pod" -- touch /tmp/stop-sampling
  wait "$sampler" || true

  # --- what it did --------------------------------------------------------------------------------
  "$VEGETA" report -type json "$OUT/connections-$name.bin" >"$OUT/connections-$name.json"
  local requests failed codes peak peak_line refused=0 errors5xx=0 p n
  requests=$(jq .requests "$OUT/connections-$name.json")
  failed=$(jq '[.status_codes | to_entries[] | select(.key | test("^2") | not) | .value] | add // 0' "$OUT/connections-$name.json")
  codes=$(jq -c .status_codes "$OUT/connections-$name.json")
  peak_line=$(grep -E '^[0-9]+ ' "$OUT/connections-$name-samples.txt" | sort -n -k1,1 | tail -1)
  peak=${peak_line%% *}
  [ -n "$peak" ] || die "no sample of PostgreSQL's connections (see $OUT/connections-$name-samples.txt)"
  # Every pod's log since the load began: the replaced ones (followed) and the ones running now.
  kubectl -n "$NS" logs --prefix --since-time="$start" --max-log-requests 100 -l "$selector" \
    >"$OUT/connections-$name-running.log" 2>&1 || true
  kubectl -n "$NS" logs "$pg_pod" --since-time="$start" >"$OUT/connections-$name-postgresql.log" 2>&1 || true
  # Readiness probes that failed meanwhile (the kubelet's events): most are the draining pods'
  # 503s and the refusals after they stop; the ones that timed out are a slow node's.
  local unready slow
  read -r unready slow < <(kubectl -n "$NS" get events --field-selector reason=Unhealthy -o json | jq -r --arg s "$start" \
    '[.items[] | select((.lastTimestamp // .eventTime // "") >= $s) | select(.message | startswith("Readiness"))]
     | "\([.[] | .count // 1] | add // 0) \([.[] | select(.message | test("deadline exceeded|Timeout")) | .count // 1] | add // 0)"') || true
  refused=$(cat "$OUT/connections-$name-replaced.log" "$OUT/connections-$name-running.log" \
    "$OUT/connections-$name-postgresql.log" | grep -Eic "$CONNECTIONS_REFUSED" || true)
  # 5xx counted by the services themselves, in the pods running now (the replaced ones answered
  # the first part of the load: the load's own answers cover it).
  for p in $(kubectl -n "$NS" get pod -l "app.kubernetes.io/component in ($(IFS=,; echo "${CONNECTIONS_SERVICES[*]}"))" \
      --field-selector=status.phase=Running -o jsonpath='{.items[*].metadata.name}'); do
    n=$(kubectl get --raw "/api/v1/namespaces/$NS/pods/$p:9090/proxy/metrics" \
      | awk '/^prode_http_requests_total\{/ && /status="5/ { s += $NF } END { printf "%d", s }') \
      || die "could not read $p's metrics"
    errors5xx=$((errors5xx + n))
  done
  report "- connections, $name: $CONNECTIONS_WORKERS concurrent requests for $(jq -r '.duration / 1e9 | floor' "$OUT/connections-$name.json") s, every service pod replaced meanwhile (in $rolled s): $requests requests, $failed failed (status codes: $codes); PostgreSQL's peak $peak client backends (players, fixtures, predictions, scoring: ${peak_line#* }) of the chart's $count; $refused refused or failed connections in the logs; $errors5xx 5xx in the services' metrics; $unready readiness probes failed, $slow of them timed out"
  if [ "$refused" -gt 0 ]; then
    cat "$OUT/connections-$name-replaced.log" "$OUT/connections-$name-running.log" "$OUT/connections-$name-postgresql.log" \
      | grep -Ei "$CONNECTIONS_REFUSED" | head -20 >&2
    die "$refused connections refused or failed at the maxima ($name)"
  fi
  if [ "$failed" -gt 0 ] || [ "$errors5xx" -gt 0 ]; then
    # What the services said about their failed answers, whatever the cause.
    cat "$OUT/connections-$name-replaced.log" "$OUT/connections-$name-running.log" \
      | grep -E '"level":"(ERROR|WARN)"' | head -20 >&2 || true
    kubectl -n "$NS" get events --field-selector reason=Unhealthy --sort-by=.lastTimestamp 2>&1 | tail -10 >&2 || true
    # and what Traefik logged of them (5xx only): OriginStatus 0 is its own answer.
    kubectl -n traefik logs deploy/traefik --since-time="$start" 2>&1 | grep -F DownstreamStatus \
      | jq -c '{time, RouterName, ServiceURL, OriginStatus, DownstreamStatus, RequestPath}' 2>/dev/null | head -20 >&2 || true
  fi
  [ "$failed" -eq 0 ] || die "$failed requests failed at the maxima ($name)"
  [ "$errors5xx" -eq 0 ] || die "the services counted $errors5xx 5xx answers at the maxima ($name)"
  [ "$peak" -le "$count" ] || die "PostgreSQL saw $peak client backends, more than the chart's count of $count ($name)"
}
