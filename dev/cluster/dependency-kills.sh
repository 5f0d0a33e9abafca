# shellcheck shell=bash
# The cluster test's step 7b: the bundled PostgreSQL's pod, then Redis's, force-deleted (what a
# node's crash looks like to the release) while players read the standings, the open matches and
# their session and save predictions through the ingress. It checks:
#   - a prediction acknowledged the moment before PostgreSQL's crash is stored after it;
#   - every answer, before, during and after, is a 2xx or a 503 in the API's shape
#     (servicio_no_disponible, as the services answer while PostgreSQL is away) within 5 s:
#     never a 500, a 502 or 504 of the ingress, nor a request left unanswered;
#   - saves are acknowledged again within 30 s of PostgreSQL's new pod being Ready;
#   - from Redis's crash on, every answer is a 2xx (Redis caches the standings and holds the
#     rate limits' buckets; nothing waits for it);
#   - once Redis's new pod is Ready, players and scoring use it again, with its password: a
#     refused sign-in is counted in it (its shared rate-limit key) and the standings are cached
#     in it (their version key), each within 30 s;
#   - no container of the release restarted: a dependency's outage fails no liveness probe.
# Sourced by dev/test-cluster.sh, whose kubectl, report, die, log, sign_in, api, psql_pod,
# restarted_containers, running_pod, NS, URL, OUT and VEGETA it uses (psql_pod's pod keeps its
# name: a StatefulSet's).

# redis_exec COMMAND...: runs a command in the bundled Redis's container, where redis-cli
# authenticates with the pod's own REDISCLI_AUTH.
redis_exec() {
  kubectl -n "$NS" exec deploy/"$(kubectl -n "$NS" get deploy -l app.kubernetes.io/component=redis -o jsonpath='{.items[0].metadata.name}')" \
    -- "$@"
}

# redis_keys PATTERN: the first key of the bundled Redis that matches.
redis_keys() {
  redis_exec redis-cli --scan --pattern "$1" 2>/dev/null | head -1
}

# redis_used_again: waits until players and scoring use a new, empty Redis: a refused sign-in
# makes its shared rate-limit key in it, and the standings read under the load put scoring's
# version key back; each within 30 s. Prints the seconds each took ("COUNTED CACHED").
redis_used_again() {
  local t0=$SECONDS key="" bad counted
  until [ -n "$key" ]; do
    [ $((SECONDS - t0)) -lt 30 ] || die "no sign-in was counted in Redis's new pod within 30 s"
    bad=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Origin: $URL" -H 'Content-Type: application/json' \
      -d '{"code":"no-es-un-codigo"}' "$URL/api/sesion")
    # 429 once the address's sign-ins are spent: refused all the same, and counted.
    [ "$bad" = 401 ] || [ "$bad" = 429 ] || die "a sign-in with a bad code answered $bad"
    key=$(redis_keys 'rate:*limit:players:signins:*')
    [ -n "$key" ] || sleep 1
  done
  counted=$((SECONDS - t0))
  t0=$SECONDS
  until [ -n "$(redis_keys '*posiciones*version')" ]; do
    [ $((SECONDS - t0)) -lt 30 ] || die "scoring did not cache the standings in Redis's new pod within 30 s"
    sleep 1
  done
  echo "$counted $((SECONDS - t0))"
}

# crash COMPONENT: force-deletes the component's pod and waits for its replacement to be Ready;
# prints the seconds that took.
crash() {
  local component=$1 old uid t0=$SECONDS deadline=$((SECONDS + 180))
  old=$(running_pod "$component" uid)
  kubectl -n "$NS" delete pod -l "app.kubernetes.io/component=$component" --grace-period=0 --force \
    >/dev/null 2>"$OUT/crash-$component.log" || { cat "$OUT/crash-$component.log" >&2; die "could not delete $component's pod"; }
  until uid=$(running_pod "$component" uid) && [ -n "$uid" ] && [ "$uid" != "$old" ] &&
      kubectl -n "$NS" wait pod -l "app.kubernetes.io/component=$component" --for=condition=Ready --timeout=2s >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "$component's new pod was not Ready within 3 minutes"
    sleep 0.5
  done
  echo $((SECONDS - t0))
}

# slow_503s KILL: what a failure needs to be understood, on stderr: the 503s slower than 5 s by
# route (how many, the slowest, when they were sent after KILL, PostgreSQL's crash), and the
# causes the Go services logged for their 503s since KILL, addresses left out.
slow_503s() {
  local kill=$1 component
  jq -sc --argjson k "$kill" '[.[] | select(.code == 503 and .ms > 5000)] | group_by(.method + " " + .path)[]
    | {route: (.[0].method + " " + .[0].path), count: length, slowest_ms: (map(.ms) | max),
       sent_after_kill_s: (map(.t - $k) | unique)}' "$OUT/crash-answers.jsonl" >&2
  for component in players fixtures predictions scoring; do
    echo "$component's causes of its 503s:" >&2
    kubectl -n "$NS" logs -l "app.kubernetes.io/component=$component" --prefix --since-time="$(date -u -d "@$kill" +%FT%TZ)" \
      --max-log-requests 20 --tail=-1 2>&1 | jq -Rr 'fromjson? | select(.msg == "request failed") | .error' |
      sed -E 's/[0-9]+(\.[0-9]+){3}(:[0-9]+)?/ADDRESS/g' | sort | uniq -c | sort -rn | head -5 >&2
  done
}

# dependencies_crash_under_load RUN: the step (RUN names its players).
dependencies_crash_under_load() {
  local run=$1 partido durable cookie encoded pg_kill pg_ready redis_kill ready_pg ready_redis
  partido=$(curl -fsS "$URL/api/partidos-sin-jugar" | jq -r '[.[] | select(.apostable)][1].id')
  if [ -z "$partido" ] || [ "$partido" = null ]; then die "no second open match to predict"; fi
  cookie=$(sign_in "caida-$run@prode.test" "Caída $run")
  durable=$(sign_in "durable-$run@prode.test" "Durable $run")
  printf '{"partido":%s,"goles_local":1,"goles_visitante":1}' "$partido" >"$OUT/crash-body.json"
  cat >"$OUT/crash-targets.txt" <<EOF
GET $URL/api/posiciones

GET $URL/api/partidos-sin-jugar

GET $URL/api/sesion
Cookie: $cookie

POST $URL/api/jugadores/caida-$run@prode.test/apuestas
Cookie: $cookie
Origin: $URL
Content-Type: application/json
@$OUT/crash-body.json

EOF
  TZ=UTC "$VEGETA" attack -targets "$OUT/crash-targets.txt" -rate 20/1s -duration 0 -timeout 10s \
    -output "$OUT/crash.bin" &
  load_pid=$!
  sleep 3

  # --- PostgreSQL: acknowledged, then crashed at once ---
  api POST "/api/jugadores/durable-$run@prode.test/apuestas" "$durable" \
    "{\"partido\":$partido,\"goles_local\":3,\"goles_visitante\":2}" >/dev/null || die "the prediction before the crash was refused"
  pg_kill=$(date +%s)
  ready_pg=$(crash postgresql)
  pg_ready=$(date +%s)
  sleep 15

  # --- Redis ---
  redis_kill=$(date +%s)
  ready_redis=$(crash redis)
  local counted cached
  read -r counted cached < <(redis_used_again) || true
  [ -n "$cached" ] || die "players and scoring did not use Redis's new pod"
  sleep 5
  kill -INT "$load_pid"; wait "$load_pid" || true; load_pid=""

  # --- what the players saw ---
  encoded=$OUT/crash.jsonl
  TZ=UTC "$VEGETA" encode -to json "$OUT/crash.bin" >"$encoded"
  # Each answer: its second, status, latency (ms), method and, for a 503, whether the body is
  # the API's servicio_no_disponible.
  jq -c '{t: (.timestamp | sub("\\.[0-9]+"; "") | fromdateiso8601), code, ms: (.latency / 1e6 | floor), method,
          path: (.url | sub("^https?://[^/]+"; "")),
          shaped: (.code != 503 or (((.body // "") | @base64d | fromjson? | .error) // null) == "servicio_no_disponible")}' \
    "$encoded" >"$OUT/crash-answers.jsonl"
  local total bad_answers slow slowest_503 unavailable last_503 saves_back redis_bad
  total=$(wc -l <"$OUT/crash-answers.jsonl")
  bad_answers=$(jq -s '[.[] | select((.code / 100 | floor) != 2 and (.code != 503 or (.shaped | not)))] | length' "$OUT/crash-answers.jsonl")
  slow=$(jq -s '[.[] | select(.code == 503 and .ms > 5000)] | length' "$OUT/crash-answers.jsonl")
  unavailable=$(jq -s '[.[] | select(.code == 503)] | length' "$OUT/crash-answers.jsonl")
  slowest_503=$(jq -s '[.[] | select(.code == 503) | .ms] | max // 0' "$OUT/crash-answers.jsonl")
  # Saves are back with the first one acknowledged after the last 503 (requests are stamped with
  # the second they were sent in; the pod dies a moment after `kubectl delete` returns).
  last_503=$(jq -s --argjson k "$pg_kill" '[.[] | select(.code == 503) | .t] | max // $k' "$OUT/crash-answers.jsonl")
  saves_back=$(jq -s --argjson k "$last_503" '[.[] | select(.method == "POST" and .t > $k and (.code / 100 | floor) == 2)] | (map(.t) | min) // empty' "$OUT/crash-answers.jsonl")
  redis_bad=$(jq -s --argjson k "$redis_kill" '[.[] | select(.t >= $k and (.code / 100 | floor) != 2)] | length' "$OUT/crash-answers.jsonl")
  report "- PostgreSQL's pod force-deleted under 20 requests/s through the ingress: its new pod Ready in $ready_pg s; 503s for requests sent up to $((last_503 - pg_kill)) s after the crash, saves acknowledged again from $((${saves_back:-$pg_kill} - pg_kill)) s; Redis's pod force-deleted: new pod Ready in $ready_redis s, a refused sign-in counted in it $counted s later and the standings cached in it $cached s after that; $total requests: $unavailable answered 503 servicio_no_disponible, $bad_answers otherwise, $slow slower than 5 s (the slowest after $slowest_503 ms), $redis_bad not 2xx after Redis's crash (status codes: $(jq -sc 'group_by(.code) | map({(.[0].code | tostring): length}) | add' "$OUT/crash-answers.jsonl"))"
  [ "$bad_answers" = 0 ] || die "$bad_answers answers were neither a 2xx nor the API's 503 (see $OUT/crash-answers.jsonl)"
  [ "$slow" = 0 ] || { slow_503s "$pg_kill"; die "$slow 503 answers took over 5 s"; }
  [ -n "$saves_back" ] || die "no save was acknowledged after PostgreSQL's crash"
  [ $((saves_back - pg_ready)) -le 30 ] || die "saves were acknowledged again only $((saves_back - pg_ready)) s after PostgreSQL was Ready"
  [ "$redis_bad" = 0 ] || die "$redis_bad answers after Redis's crash were not 2xx"
  [ "$(psql_pod -c "SELECT goles_local || '-' || goles_visitante FROM predictions.apuestas WHERE jugador_email = 'durable-$run@prode.test' AND partido_id = $partido")" = 3-2 ] \
    || die "the prediction acknowledged before PostgreSQL's crash is not stored"
  local restarts
  restarts=$(restarted_containers | grep "^$NS/" || true)
  [ -z "$restarts" ] || die "containers restarted while PostgreSQL or Redis was away: $restarts"
  report "- the prediction acknowledged just before PostgreSQL's crash is stored; no container of the release restarted"
}
