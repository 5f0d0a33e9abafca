#!/usr/bin/env bash
# The chart for real (make test-cluster; make test runs it): on the one-node cluster of
# dev/cluster.sh (started here when it is not running, and then stopped at the end), with images
# built from docker/ by dev/images.sh, in a namespace that enforces Pod Security "restricted":
#   1. helm install with values-kind.yaml + values-cluster.yaml; every pod Ready (timed)
#   2. helm test; one run of the predictions' index CronJob (`migrate reindex`), as a Job from it
#   3. the e2e suite's browser scenario in Chromium through the cluster's ingress (Traefik)
#   4. helm upgrade to a new image tag under steady load (vegeta): failed requests counted (goal 0)
#  4b. a real Prometheus (dev/cluster/prometheus/), installed before the release, scraped every
#      Go service pod through that upgrade: each service's request rate and scoring's outbox lag
#      read from its API, and the chart's alerting rules evaluate on those series
#   5. a failing migration stops the upgrade before any Deployment changes; the next upgrade
#      recovers by itself (migrate forces the failed version back), with no hand-run SQL
#   6. helm rollback to the first release
#   7. a scoring pod killed in the middle of scoring: points and totals equal a recomputation
#  7b. PostgreSQL's pod, then Redis's, force-deleted under load: every answer a 2xx or the API's
#      503, an acknowledged prediction kept, no container restarted (dev/cluster/dependency-kills.sh)
#  7c. Redis's password changed twice under that load (its Secret deleted, then an operator's own
#      with characters a URL would need escaped; one helm upgrade each): Redis, players and scoring
#      restart with the new one, every answer a 2xx (dev/cluster/redis-password.sh)
#   8. helm uninstall, then install again on the same PersistentVolumeClaim: the data is there
#  8b. a backup taken, then restored with docs/operations.md's commands after a result corrected
#      and a sign-up: the backup's standings and players, every session closed, scoring carrying
#      on (dev/cluster/backup-restore.sh)
#  8c. the claim lost (uninstalled, the claim deleted), the release installed on a new one, and
#      the same backup restored there: the backup's standings and players
#   9. the connection budget: every Go service held at its autoscaler's maximum, PostgreSQL at
#      exactly the chart's count of connections (+ the reserve), a load that fills the pools
#      while every pod is replaced: no refused connection, no failed request; without and with
#      PgBouncer (dev/cluster/connections.sh)
# Figures go to .test/cluster/report.md (docs/operations.md quotes the last run).
# CLUSTER_KEEP=1 leaves the cluster and the release running afterwards.
# CLUSTER_UPGRADE_FROM=REV installs REV's chart with REV's images in step 1, so that step 4 is
# the upgrade an operator runs from that release to this tree, and step 6 rolls back to it (the
# old code on the new schema); the release is then upgraded to this tree again for steps 7 on.
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=dev/chart-tools.sh
source "$ROOT/dev/chart-tools.sh"
LOG_PREFIX=test-cluster
cd "$ROOT"

NS=prode-test
RELEASE=prode
URL=http://localhost:8880
OUT=$ROOT/.test/cluster
REPORT=$OUT/report.md
LOCK=/run/lock/prode-cluster.lock
[ "$(id -u)" -eq 0 ] || die "the cluster test needs root (dev/cluster.sh)"
mkdir -p "$OUT" /run/lock
: >"$REPORT"
report() { echo "$*" >>"$REPORT"; log "$*"; }

# One cluster per machine: a second checkout's run waits here for the first to finish.
exec 9>"$LOCK"
if ! flock -n 9; then
  log "another checkout's cluster test is running; waiting for it (up to 60 minutes)"
  flock -w 3600 9 || die "the machine's cluster stayed busy for 60 minutes"
fi

# restarted_containers: a line for each container of the cluster that restarted, with why it
# last stopped. A container killed at its memory limit (OOMKilled) otherwise shows only as the
# 503s or connection resets it caused (twice, a PostgreSQL and a Traefik pod of this test).
restarted_containers() {
  kubectl get pods -A -o json | jq -r '.items[] | . as $p | .status.containerStatuses[]?
    | select(.restartCount > 0) | .lastState.terminated as $t
    | "\($p.metadata.namespace)/\($p.metadata.name) \(.name): \(.restartCount) restarts, last \($t.reason // "?") (exit \($t.exitCode // "?"))"'
}

# running_pod COMPONENT [FIELD]: the name (or another metadata FIELD, such as uid) of the
# component's running pod, never one a rollout or a force-delete left terminating; empty while
# there is none.
running_pod() {
  kubectl -n "$NS" get pod -l "app.kubernetes.io/component=$1" -o json | jq -r --arg field "${2:-name}" \
    '[.items[] | select(.metadata.deletionTimestamp == null and .status.phase == "Running")][0].metadata[$field] // empty'
}

started_cluster=""
cleanup() {
  local rc=$?
  [ -z "${load_pid:-}" ] || kill -INT "$load_pid" 2>/dev/null || true
  if [ $rc -ne 0 ] && [ -s .cluster/kubeconfig ]; then
    # || true: under set -e a failing kubectl (the cluster never came up) would end the cleanup
    # here, before the state file and the cluster's removal.
    { restarted_containers 2>/dev/null || true; } | while read -r line; do log "restarted: $line"; done
    log "failed; the namespace's state is in $OUT/state.txt"
    { kubectl -n "$NS" get all,pvc,jobs -o wide; kubectl -n "$NS" get events --sort-by=.lastTimestamp | tail -40; } \
      >"$OUT/state.txt" 2>&1 || true
  fi
  if [ -z "${CLUSTER_KEEP:-}" ] && [ -n "$started_cluster" ]; then dev/cluster.sh down || true; fi
}
trap cleanup EXIT

dev/cluster.sh status || { dev/cluster.sh up >/dev/null; started_cluster=1; }
ensure_kubernetes; ensure_helm
export KUBECONFIG=$ROOT/.cluster/kubeconfig
kubectl() { "$K8S_BIN/kubectl" "$@"; }
helm() { "$HELM" "$@"; }
VALUES=(-f charts/prode/values-kind.yaml -f charts/prode/values-cluster.yaml)
# shellcheck source=dev/cluster/prometheus/prometheus.sh
source "$ROOT/dev/cluster/prometheus/prometheus.sh"
# shellcheck source=dev/cluster/connections.sh
source "$ROOT/dev/cluster/connections.sh"
# shellcheck source=dev/cluster/dependency-kills.sh
source "$ROOT/dev/cluster/dependency-kills.sh"
# shellcheck source=dev/cluster/redis-password.sh
source "$ROOT/dev/cluster/redis-password.sh"
# shellcheck source=dev/cluster/backup-restore.sh
source "$ROOT/dev/cluster/backup-restore.sh"

# --- images: this tree as tag A; the same images as tag B (the upgrade); a broken migrate -----
run=$(date +%s)
TAG_A=a$run TAG_B=b$run
t0=$SECONDS
dev/images.sh build "$TAG_A"
report "- images built and pushed (tag $TAG_A): $((SECONDS - t0)) s"
# The first release: this tree (tag A), or with CLUSTER_UPGRADE_FROM the chart and images of an
# earlier revision, from its own files (tag F), its Docker stand-ins shared with this tree's.
FIRST_TAG=$TAG_A FIRST_CHART=charts/prode FIRST_VALUES=("${VALUES[@]}")
if [ -n "${CLUSTER_UPGRADE_FROM:-}" ]; then
  from=$OUT/from
  rm -rf "$from"; mkdir -p "$from/.test" .test/standins
  git archive "$CLUSTER_UPGRADE_FROM" | tar -x -C "$from"
  ln -s "$ROOT/.test/standins" "$from/.test/standins"
  FIRST_TAG=f$run FIRST_CHART=$from/charts/prode
  FIRST_VALUES=(-f "$from/charts/prode/values-kind.yaml" -f "$from/charts/prode/values-cluster.yaml")
  t0=$SECONDS
  (cd "$from" && dev/images.sh build "$FIRST_TAG")
  report "- the first release from $(git rev-parse --short "$CLUSTER_UPGRADE_FROM") ($(git log -1 --format=%cs "$CLUSTER_UPGRADE_FROM")): its images built and pushed (tag $FIRST_TAG) in $((SECONDS - t0)) s"
fi
for s in players fixtures predictions scoring migrate web; do
  /usr/bin/docker tag "prode-$s:$TAG_A" "localhost:5000/prode-$s:$TAG_B"
  /usr/bin/docker push -q "localhost:5000/prode-$s:$TAG_B" >/dev/null
done
# A migrate image with one more migration that fails halfway (a table created, then an error).
broken=$OUT/broken-context
rm -rf "$broken"; mkdir -p "$broken/docker"
cp -r migrations services "$broken/"; cp docker/Dockerfile.go "$broken/docker/"; cp .dockerignore "$broken/"
last=$(find migrations/players -name '*.up.sql' | sort | tail -1); last=$(basename "$last"); last=${last%%_*}
failing=$(printf '%06d' $((10#$last + 1)))
printf 'CREATE TABLE players.intento_fallido (x int);\nSELECT 1 / 0;\n' >"$broken/migrations/players/${failing}_falla.up.sql"
printf 'DROP TABLE IF EXISTS players.intento_fallido;\n' >"$broken/migrations/players/${failing}_falla.down.sql"
DOCKER_BUILDKIT=1 /usr/bin/docker build -q -f "$broken/docker/Dockerfile.go" --build-arg SERVICE=migrate \
  --build-arg MODULE=migrations --build-arg GO_IMAGE=prode-standin/golang:local \
  --build-arg RUNTIME_IMAGE=prode-standin/distroless-static:local \
  -t "localhost:5000/prode-migrate:broken$run" "$broken" >/dev/null
/usr/bin/docker push -q "localhost:5000/prode-migrate:broken$run" >/dev/null
rm -rf "$broken"

# --- 1. install ------------------------------------------------------------------------------
# A fresh namespace, restricted like production's; the claim of an earlier run goes with it.
if kubectl get namespace "$NS" >/dev/null 2>&1; then
  helm -n "$NS" uninstall "$RELEASE" --wait >/dev/null 2>&1 || true
  kubectl delete namespace "$NS" --wait --timeout=180s >/dev/null
fi
kubectl get pv -o name | while read -r pv; do   # volumes released by that claim: emptied, reusable
  [ "$(kubectl get "$pv" -o jsonpath='{.status.phase}')" = Released ] || continue
  dir=$(kubectl get "$pv" -o jsonpath='{.spec.hostPath.path}')
  [[ $dir == "$ROOT/.cluster/volumes/"* ]] && find "$dir" -mindepth 1 -delete
  kubectl patch "$pv" --type json -p '[{"op":"remove","path":"/spec/claimRef"}]' >/dev/null
done
kubectl create namespace "$NS" >/dev/null
kubectl label namespace "$NS" pod-security.kubernetes.io/enforce=restricted pod-security.kubernetes.io/warn=restricted >/dev/null
prometheus_install   # scraping from the release's first pod on (step 4b reads it)
t0=$SECONDS
helm install "$RELEASE" "$FIRST_CHART" -n "$NS" "${FIRST_VALUES[@]}" --set image.tag="$FIRST_TAG" --wait --timeout 10m >/dev/null
ready=$((SECONDS - t0))
# The pods that serve, not the Jobs': the index CronJob may fire during the install, and its pod
# fail before PostgreSQL is up (seen once), or finish while waited on, never Ready.
kubectl -n "$NS" wait pod --for=condition=Ready --timeout=60s \
  -l 'app.kubernetes.io/component in (web,players,fixtures,predictions,scoring,redis,postgresql,pgbouncer)' >/dev/null
report "- helm install to every pod Ready: $ready s"
wait_http "$URL/api/partidos-sin-jugar" 60

# --- 2. helm test ----------------------------------------------------------------------------
helm test "$RELEASE" -n "$NS" --timeout 3m >/dev/null
report "- helm test: passed"
# A body over every limit (4 MiB) through the ingress: the service refuses it in the API's JSON
# shape, not the ingress with a page of its own (ingress.maxBodySize).
head -c $((4 << 20)) /dev/zero | tr '\0' x >"$OUT/too-large.json"
status=$(curl -sS -o "$OUT/too-large.out" -D "$OUT/too-large.headers" -w '%{http_code}' -H "Origin: $URL" \
  -H 'Content-Type: application/json' --data-binary @"$OUT/too-large.json" "$URL/api/sesion" || true)
if [ "$status" != 413 ] || ! grep -qi '^content-type: application/json' "$OUT/too-large.headers" \
  || [ "$(jq -r .error "$OUT/too-large.out" 2>/dev/null)" != cuerpo_demasiado_grande ]; then
  die "a 4 MiB body through the ingress: $status $(head -c 300 "$OUT/too-large.out")"
fi
report "- a 4 MiB body through the ingress: 413 cuerpo_demasiado_grande in JSON"
# this_tree_checks: what the release of this tree must show at once (the runtime's memory
# limit, the index CronJob, the browser scenario): right after the install, or with
# CLUSTER_UPGRADE_FROM once the release runs this tree (after step 6).
this_tree_checks() {
  # Each Go service keeps 85 % of its container's memory limit as the Go runtime's soft limit
  # (MEMORY_LIMIT from limits.memory, platform/service/runtime.go), and says so at start: a soft
  # limit at the whole limit would leave nothing for what the runtime overshoots or does not count.
  for c in players fixtures predictions scoring; do
    pod=pod/$(running_pod "$c")
    limit=$(kubectl -n "$NS" get "$pod" -o jsonpath='{.spec.containers[0].resources.limits.memory}')
    case $limit in
      *Gi) bytes=$(( ${limit%Gi} << 30 )) ;;
      *Mi) bytes=$(( ${limit%Mi} << 20 )) ;;
      *) die "$c: limits.memory $limit: not in Mi or Gi" ;;
    esac
    soft=$(kubectl -n "$NS" logs "$pod" | jq -Rr 'fromjson? | select(.msg == "runtime") | .memory_limit_bytes' | head -1)
    want=$(( bytes * 85 / 100 ))
    if [ -z "$soft" ] || [ $(( soft - want )) -lt -1 ] || [ $(( soft - want )) -gt 1 ]; then
      die "$c: the runtime's soft memory limit ${soft:-not logged}, want $want (85 % of $limit)"
    fi
  done
  report "- every Go service's soft memory limit: 85 % of its container's"
  # The predictions' index CronJob, run once now as a Job made from it: the migrate image, the
  # migrating role's credentials and the restricted pod work. Its log says whether it rebuilt (no
  # match has closed yet, so most likely not) in one of two messages.
  cronjob=$(kubectl -n "$NS" get cronjob -l app.kubernetes.io/component=predictions-index -o jsonpath='{.items[0].metadata.name}')
  [ -n "$cronjob" ] || die "no predictions-index CronJob in the release"
  reindex_job=$cronjob-check-$run
  t0=$SECONDS
  kubectl -n "$NS" create job --from="cronjob/$cronjob" "$reindex_job" >/dev/null
  if ! kubectl -n "$NS" wait "job/$reindex_job" --for=condition=complete --timeout=3m >/dev/null; then
    kubectl -n "$NS" logs -l "job-name=$reindex_job" --tail=20 >&2 || true
    die "the Job made from CronJob $cronjob did not complete in 3 minutes"
  fi
  reindexed=$(kubectl -n "$NS" logs -l "job-name=$reindex_job" --tail=-1 \
    | jq -Rr --arg a "the predictions' index rebuilt" --arg b "the predictions' index not rebuilt" \
        'fromjson? | select(.msg == $a or .msg == $b) | "\(.msg) (\(.reason))"' | tail -1)
  [ -n "$reindexed" ] || die "the Job made from CronJob $cronjob logged neither \"the predictions' index rebuilt\" nor \"... not rebuilt\""
  kubectl -n "$NS" delete job "$reindex_job" --wait=false >/dev/null
  report "- the predictions-index CronJob, run once as a Job: completed in $((SECONDS - t0)) s, $reindexed"

  # --- 3. the browser scenario through the ingress ---------------------------------------------
  ensure_packages chromium
  [ -d web/node_modules/playwright-core ] || (cd web && npm ci --no-audit --no-fund >/dev/null)
  # A second try only after a failure, reported as such: on a loaded 2-core machine a click has
  # been seen to wait past its 30 s for the page to settle (once in five runs); a real fault
  # fails both tries. Each try is a new player; the organiser's steps pick that player's matches.
  for try in 1 2; do
    if (cd web && PRODE_URL="$URL/" CHROMIUM_PATH=$(command -v chromium) \
        node --test --test-concurrency=1 e2e/prode.e2e.test.mjs) >"$OUT/e2e-$try.log" 2>&1; then
      break
    fi
    log "the browser scenario failed on try $try: $(grep -m1 '^    not ok' "$OUT/e2e-$try.log")"
    [ "$try" -eq 1 ] || { tail -40 "$OUT/e2e-$try.log" >&2; die "the browser scenario failed through the ingress, twice"; }
  done
  report "- the e2e browser scenario through the ingress: $(sed -n 's/^# pass /passed /p' "$OUT/e2e-$try.log") of $(sed -n 's/^# tests //p' "$OUT/e2e-$try.log") steps (try $try of 2)"
}
if [ "$FIRST_TAG" = "$TAG_A" ]; then this_tree_checks; fi

# --- sign-ins over HTTP, as the web app does (the dev chooser's code, then POST /api/sesion) ---
sign_in() {   # sign_in EMAIL NOMBRE: prints the session cookie "name=value"
  local code
  code=$(curl -fsS -H "Origin: $URL" --data-urlencode "nombre=$2" --data-urlencode "email=$1" \
    "$URL/api/sesion/dev" | sed -n 's/.*data-code="\([^"]*\)".*/\1/p')
  [ -n "$code" ] || die "no dev sign-in code for $1"
  curl -fsS -o /dev/null -D - -H "Origin: $URL" -H 'Content-Type: application/json' \
    -d "{\"code\":\"$code\"}" "$URL/api/sesion" | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p' | head -1
}
api() {   # api METHOD PATH COOKIE [BODY]
  curl -fsS -X "$1" -H "Origin: $URL" -H 'Content-Type: application/json' -H "Cookie: $3" \
    ${4:+-d "$4"} "$URL$2"
}

# --- 4. upgrade under steady load ------------------------------------------------------------
email=carga-$run@prode.test
cookie=$(sign_in "$email" "Carga $run")
partido=$(curl -fsS "$URL/api/partidos-sin-jugar" | jq -r '[.[] | select(.apostable)][0].id')
if [ -z "$partido" ] || [ "$partido" = null ]; then die "no open match to predict"; fi
printf '{"partido":%s,"goles_local":2,"goles_visitante":1,"jugador":"%s"}' "$partido" "$email" >"$OUT/body.json"
cat >"$OUT/targets.txt" <<EOF
GET $URL/

GET $URL/api/partidos-sin-jugar

GET $URL/api/posiciones

GET $URL/api/sesion
Cookie: $cookie

POST $URL/api/jugadores/$email/apuestas
Cookie: $cookie
Origin: $URL
Content-Type: application/json
@$OUT/body.json

EOF
ensure_vegeta
"$VEGETA" attack -targets "$OUT/targets.txt" -rate 20/1s -duration 0 -timeout 10s -output "$OUT/upgrade.bin" &
load_pid=$!
sleep 3
t0=$SECONDS
helm upgrade "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" --set image.tag="$TAG_B" --wait --timeout 10m >/dev/null
upgrade_time=$((SECONDS - t0))
sleep 3
kill -INT "$load_pid"; wait "$load_pid" || true; load_pid=""
"$VEGETA" report -type json "$OUT/upgrade.bin" >"$OUT/upgrade.json"
requests=$(jq .requests "$OUT/upgrade.json")
failed=$(jq '[.status_codes | to_entries[] | select(.key | test("^[23]") | not) | .value] | add // 0' "$OUT/upgrade.json")
report "- helm upgrade $FIRST_TAG -> $TAG_B in $upgrade_time s under 20 requests/s through the ingress: $requests requests, $failed failed (status codes: $(jq -c .status_codes "$OUT/upgrade.json"))"
component_image() {
  kubectl -n "$NS" get deploy -l "app.kubernetes.io/component=$1" -o jsonpath='{.items[0].spec.template.spec.containers[0].image}'
}
for d in players fixtures predictions scoring web; do
  image=$(component_image "$d")
  [[ $image == *":$TAG_B" ]] || die "$d runs $image after the upgrade"
done
[ "$failed" -eq 0 ] || die "$failed requests failed during the upgrade"

# --- 4b. Prometheus: every pod scraped, each service's request rate, the outbox lag -----------
prometheus_check

# --- 5. a failing migration, then recovery ---------------------------------------------------
generations() { kubectl -n "$NS" get deploy -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.generation}{" "}{end}'; }
before=$(generations)
if helm upgrade "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" --set image.tag="$TAG_B" \
     --set migrations.image.tag="broken$run" --set migrations.backoffLimit=0 --wait --timeout 3m >"$OUT/broken.log" 2>&1; then
  die "the upgrade with a failing migration succeeded"
fi
[ "$(generations)" = "$before" ] || die "a Deployment changed although the migrations failed: $before -> $(generations)"
curl -fsS -o /dev/null "$URL/api/partidos-sin-jugar" || die "the game stopped answering after the failed upgrade"
report "- a failing migration ($failing): helm upgrade failed, no Deployment changed, the game kept answering"
t0=$SECONDS
helm upgrade "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" --set image.tag="$TAG_B" --wait --timeout 6m >/dev/null
report "- the next helm upgrade recovered in $((SECONDS - t0)) s with no hand-run SQL"
# The Job's own log is gone (deleted on success): the database says whether it recovered.
pg_pod=$(kubectl -n "$NS" get pod -l app.kubernetes.io/component=postgresql -o name | head -1)
psql_pod() { kubectl -n "$NS" exec -i "$pg_pod" -- psql -X -q -v ON_ERROR_STOP=1 -U postgres -d prode -tA "$@"; }
[ "$(psql_pod -c "SELECT dirty FROM players.schema_migrations")" = f ] || die "players' migrations are still dirty"
[ -z "$(psql_pod -c "SELECT 1 FROM pg_tables WHERE tablename = 'intento_fallido'")" ] || die "the failed migration left a table"

# --- 6. rollback -----------------------------------------------------------------------------
t0=$SECONDS
helm rollback "$RELEASE" 1 -n "$NS" --wait --timeout 6m >/dev/null
image=$(component_image scoring)
[[ $image == *":$FIRST_TAG" ]] || die "scoring runs $image after the rollback"
wait_http "$URL/api/partidos-sin-jugar" 60
report "- helm rollback to revision 1 ($FIRST_TAG): $((SECONDS - t0)) s, the game answers"
if [ "$FIRST_TAG" != "$TAG_A" ]; then
  # The earlier release on this tree's schema answered; the steps from here on test this tree.
  curl -fsS "$URL/api/posiciones" | grep -q "Carga $run" || die "the earlier release's standings lost a player after the rollback"
  api GET /api/sesion "$cookie" | grep -q "carga-$run@prode.test" || die "the earlier release did not know a session of this tree's"
  t0=$SECONDS
  helm upgrade "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" --set image.tag="$TAG_A" --wait --timeout 6m >/dev/null
  report "- the earlier release kept the standings and the sessions; upgraded to this tree ($TAG_A) again in $((SECONDS - t0)) s"
  this_tree_checks
fi

# --- 7. a scoring pod killed in the middle of scoring ----------------------------------------
players=${CLUSTER_SCORING_PLAYERS:-200000}
psql_pod >/dev/null <<SQL
INSERT INTO players.jugadores (google_sub, email, nombre)
  SELECT 'cluster-' || g, 'cluster' || g || '@cluster.test', 'Jugador ' || g FROM generate_series(1, $players) g;
INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
  SELECT id, email, $partido, (id * 7) % 5, (id * 13) % 4 FROM players.jugadores WHERE email LIKE '%@cluster.test';
ANALYZE players.jugadores; ANALYZE predictions.apuestas;
SQL
admin=$(sign_in admin@prode.test "Organizador Demo")
# The running scoring pod, not one the rollback left terminating (deleting that one could find it
# already gone).
kubectl -n "$NS" rollout status deploy -l app.kubernetes.io/component=scoring --timeout=3m >/dev/null
scoring_pod=pod/$(running_pod scoring)
api PUT "/api/partidos/$partido/resultado" "$admin" '{"goles_local":2,"goles_visitante":1}' >/dev/null
sleep "${CLUSTER_KILL_AFTER:-0.5}"
kubectl -n "$NS" delete "$scoring_pod" --grace-period=0 --force >/dev/null 2>"$OUT/kill.log" \
  || { cat "$OUT/kill.log" >&2; die "could not kill $scoring_pod"; }
# Was the result still being scored when the pod went? (Scoring commits a match's points, its
# totals and the event's mark in one transaction: all or nothing.)
unscored=$(psql_pod -c "SELECT count(*) FROM fixtures.eventos e WHERE NOT EXISTS (SELECT 1 FROM scoring.eventos_procesados p WHERE p.evento_id = e.id)")
kubectl -n "$NS" rollout status deploy -l app.kubernetes.io/component=scoring --timeout=3m >/dev/null 2>&1 \
  || kubectl -n "$NS" wait pod -l app.kubernetes.io/component=scoring --for=condition=Ready --timeout=3m >/dev/null
deadline=$((SECONDS + 180))
until [ "$(psql_pod -c "SELECT count(*) FROM fixtures.eventos e WHERE NOT EXISTS (SELECT 1 FROM scoring.eventos_procesados p WHERE p.evento_id = e.id)")" = 0 ]; do
  [ $SECONDS -lt $deadline ] || die "scoring did not catch up with the outbox in 3 minutes"
  sleep 1
done
wrong=$(psql_pod <<SQL
WITH esperado AS (
  SELECT a.jugador_id,
         CASE WHEN a.goles_local = r.goles_local AND a.goles_visitante = r.goles_visitante THEN 10
              WHEN sign(a.goles_local - a.goles_visitante) = sign(r.goles_local - r.goles_visitante)
                THEN 5 + CASE WHEN a.goles_local = r.goles_local OR a.goles_visitante = r.goles_visitante THEN 2 ELSE 0 END
              WHEN a.goles_local = r.goles_local OR a.goles_visitante = r.goles_visitante THEN 2
              ELSE 0 END AS puntos
  FROM predictions.apuestas a JOIN fixtures.resultados r ON r.partido_id = a.partido_id
  WHERE a.partido_id = $partido)
SELECT (SELECT count(*) FROM esperado e LEFT JOIN scoring.puntos p ON p.partido_id = $partido AND p.jugador_id = e.jugador_id
        WHERE p.puntos IS DISTINCT FROM e.puntos)
     + (SELECT count(*) FROM (SELECT torneo_id, jugador_id, sum(puntos) AS s FROM scoring.puntos GROUP BY 1, 2) s
        FULL JOIN scoring.totales_torneo t USING (torneo_id, jugador_id)
        WHERE coalesce(t.puntaje, 0) <> coalesce(s.s, 0));
SQL
)
scored=$(psql_pod -c "SELECT count(*) FROM scoring.puntos WHERE partido_id = $partido")
report "- scoring pod force-deleted ${CLUSTER_KILL_AFTER:-0.5} s after a result for $scored predictions ($unscored outbox events not yet applied at the kill): $wrong points or totals differ from a recomputation"
[ "$wrong" = 0 ] || die "$wrong points or totals differ from a recomputation"

# --- 7b. PostgreSQL's and Redis's pods crashed under load ------------------------------------
dependencies_crash_under_load "$run"

# --- 7c. Redis's password changed under load -------------------------------------------------
redis_password_changed_under_load

# --- 8. uninstall, then install again on the same claim ---------------------------------------
jugadores=$(psql_pod -c "SELECT count(*) FROM players.jugadores")
helm uninstall "$RELEASE" -n "$NS" --wait --timeout 5m >/dev/null
kubectl -n "$NS" get pvc -o name | grep -q . || die "the PostgreSQL claim went with the release"
t0=$SECONDS
helm install "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" --set image.tag="$TAG_A" --wait --timeout 10m >/dev/null
pg_pod=$(kubectl -n "$NS" get pod -l app.kubernetes.io/component=postgresql -o name | head -1)
[ "$(psql_pod -c "SELECT count(*) FROM players.jugadores")" = "$jugadores" ] || die "the players did not survive the re-install"
wait_http "$URL/api/partidos-sin-jugar" 60
curl -fsS "$URL/api/posiciones" | grep -q "Carga $run" || die "the standings lost a player across the re-install"
report "- helm uninstall + install on the same claim: $((SECONDS - t0)) s, $jugadores players kept, migrations Job ran"

# --- 8b. a backup restored -------------------------------------------------------------------
backup_restored "$run" "$partido"
backup_restored_on_a_new_claim

# --- 9. the connection budget at the autoscalers' maxima, without and with PgBouncer ----------
t9=$SECONDS
connections_at_the_maxima direct
connections_at_the_maxima pgbouncer --set pgbouncer.enabled=true
report "- the connection budget step, both runs: $((SECONDS - t9)) s"
restarts=$(restarted_containers | paste -sd ";" -) || restarts="(not read: kubectl failed)"
report "- containers restarted during the test: ${restarts:-none}"

if [ -z "${CLUSTER_KEEP:-}" ]; then
  helm uninstall "$RELEASE" -n "$NS" --wait >/dev/null 2>&1 || true
  kubectl delete namespace "$NS" --wait=false >/dev/null 2>&1 || true
  kubectl delete namespace monitoring --wait=false >/dev/null 2>&1 || true
fi
log "passed; figures in $REPORT"
cat "$REPORT"
