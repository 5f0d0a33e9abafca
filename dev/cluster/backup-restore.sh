# shellcheck shell=bash
# The cluster test's step 8b: a backup of the bundled PostgreSQL taken and restored into the
# running release with the commands of docs/operations.md ("Backups of the bundled PostgreSQL"),
# one for one. Between the backup and the restore the organiser corrects a result (the standings
# change) and a new player signs in. Once the game is open again it checks what players see:
#   - the standings are the table of the backup's moment, row by row;
#   - the new player is gone, and so are the results entered after the backup;
#   - every session is closed (a cookie from before the backup and one from after answer 401),
#     and signing in works;
#   - the same correction entered again is scored into the same table it gave the first time,
#     so the outbox and scoring carry on from the backup's point;
#   - an index rebuild running when the game closes is stopped, and the CronJob is suspended
#     while the game is closed and resumed once it is open.
# Step 8c (backup_restored_on_a_new_claim) then loses the claim and restores the same backup onto
# a new one.
# Sourced by dev/test-cluster.sh, whose kubectl, helm, report, die, log, sign_in, api, psql_pod,
# wait_http, NS, RELEASE, URL, OUT, VALUES and TAG_A it uses.

# standings_rows: the first page of the standings as a player's browser gets it, rows only.
standings_rows() {
  curl -fsS "$URL/api/posiciones" | jq -c .posiciones
}

# until_standings_are ROWS WHAT: waits up to 2 minutes for the first page to be ROWS.
until_standings_are() {
  local deadline=$((SECONDS + 120))
  until [ "$(standings_rows 2>/dev/null)" = "$1" ]; do
    [ $SECONDS -lt $deadline ] || die "the standings did not become $2 within 2 minutes"
    sleep 1
  done
}

# until_standings_change_from ROWS: waits up to 2 minutes for the first page to differ from ROWS.
until_standings_change_from() {
  local deadline=$((SECONDS + 120)) rows
  while rows=$(standings_rows 2>/dev/null) && [ "$rows" = "$1" ] || [ -z "$rows" ]; do
    [ $SECONDS -lt $deadline ] || die "the corrected result did not change the standings within 2 minutes"
    sleep 1
  done
}

session_status() {   # session_status COOKIE: the HTTP status of GET /api/sesion with it
  curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $1" "$URL/api/sesion"
}

# The operator's commands (docs/operations.md), with this test's namespace and release. Step 2's
# script is read from the page; the kubectl and helm lines around it are this file's own copies,
# and mirrored_commands_still_in_the_doc fails the step when the page no longer says them.
mirrored_commands_still_in_the_doc() {
  local line
  while IFS= read -r line; do
    grep -qxF -- "$line" docs/operations.md \
      || die "docs/operations.md no longer says a command this test runs in its own words; update dev/cluster/backup-restore.sh with the page: $line"
  done <<'COMMANDS'
kubectl -n prode exec prode-postgresql-0 -- pg_dump -U postgres -d prode -Fc > prode-$(date +%F).dump
helm uninstall prode -n prode --wait
kubectl -n prode delete pvc data-prode-postgresql-0
helm upgrade --install prode charts/prode -n prode -f my-values.yaml --wait --timeout 10m
kubectl -n prode patch cronjob prode-predictions-index -p '{"spec":{"suspend":true}}'
kubectl -n prode delete job -l app.kubernetes.io/instance=prode,app.kubernetes.io/component=predictions-index
kubectl -n prode scale deployment -l app.kubernetes.io/instance=prode --replicas=0
helm upgrade prode charts/prode -n prode -f my-values.yaml --wait
while IFS='=' read -r d n; do kubectl -n prode scale deployment "$d" --replicas="$n"; done < replicas.txt
kubectl -n prode patch cronjob prode-predictions-index -p '{"spec":{"suspend":false}}'
COMMANDS
}

take_backup() {   # take_backup FILE
  kubectl -n "$NS" exec "$RELEASE-postgresql-0" -- pg_dump -U postgres -d prode -Fc >"$1"
}

index_cronjob_suspended() {   # prints the predictions-index CronJob's spec.suspend (true/false)
  kubectl -n "$NS" get cronjob "$RELEASE-predictions-index" -o jsonpath='{.spec.suspend}'
}

close_the_game() {
  kubectl -n "$NS" patch cronjob "$RELEASE-predictions-index" -p '{"spec":{"suspend":true}}' >/dev/null
  kubectl -n "$NS" delete job -l "app.kubernetes.io/instance=$RELEASE,app.kubernetes.io/component=predictions-index" >/dev/null
  kubectl -n "$NS" get deployment -l app.kubernetes.io/instance="$RELEASE" \
    -o jsonpath='{range .items[*]}{.metadata.name}={.spec.replicas}{"\n"}{end}' >"$OUT/replicas.txt"
  kubectl -n "$NS" scale deployment -l app.kubernetes.io/instance="$RELEASE" --replicas=0 >/dev/null
  local deadline=$((SECONDS + 180))
  while kubectl -n "$NS" get pods -o name \
    -l "app.kubernetes.io/instance=$RELEASE,app.kubernetes.io/component in (web,players,fixtures,predictions,scoring,redis,pgbouncer,predictions-index)" | grep -q .; do
    [ $SECONDS -lt $deadline ] || die "the release's pods were still there 3 minutes after scaling to 0"
    sleep 2
  done
}

# restore_script: the script step 2 of docs/operations.md runs in PostgreSQL's pod, read from the
# document (between "bash -c '" and "' < prode-DATE.dump"), so that this step runs it as written.
restore_script() {
  sed -n "/-- bash -c 'set -o pipefail\$/,/' < prode-DATE.dump\$/p" docs/operations.md \
    | sed "1s/.*-- bash -c '//; \$s/' < prode-DATE.dump\$//"
}

restore_backup() {   # restore_backup FILE
  local script
  script=$(restore_script)
  [[ $script == "set -o pipefail"*"pg_restore"*"COMMIT;"* ]] || die "no restore script in docs/operations.md"
  kubectl -n "$NS" exec -i "$RELEASE-postgresql-0" -- bash -c "$script" <"$1"
}

open_the_game() {
  helm upgrade "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" --set image.tag="$TAG_A" --wait --timeout 6m >/dev/null
  while IFS='=' read -r deployment replicas; do
    kubectl -n "$NS" scale deployment "$deployment" --replicas="$replicas" >/dev/null
  done <"$OUT/replicas.txt"
  kubectl -n "$NS" patch cronjob "$RELEASE-predictions-index" -p '{"spec":{"suspend":false}}' >/dev/null
  kubectl -n "$NS" rollout status deployment -l app.kubernetes.io/instance="$RELEASE" --timeout=5m >/dev/null
}

# backup_restored RUN MATCH: the step, on MATCH (step 7's, with 200,000 predictions and the
# result 2 - 1); RUN names its players.
backup_restored() {
  local run=$1 partido=$2 admin before_player at_backup jugadores t0 taken closed restored opened after new_player newcomer
  mirrored_commands_still_in_the_doc
  admin=$(sign_in admin@prode.test "Organizador Demo")
  before_player=$(sign_in "antes.$run@prode.test" "Antes de la copia $run")
  [ "$(session_status "$before_player")" = 200 ] || die "a player signed in before the backup has no session"
  at_backup=$(standings_rows)
  jugadores=$(psql_pod -c "SELECT count(*) FROM players.jugadores")

  t0=$SECONDS
  take_backup "$OUT/prode.dump"
  taken=$((SECONDS - t0))
  [ -s "$OUT/prode.dump" ] || die "pg_dump wrote nothing"

  # After the backup: a correction that reorders the table, and a newcomer.
  api PUT "/api/partidos/$partido/resultado" "$admin" '{"goles_local":0,"goles_visitante":3}' >/dev/null
  until_standings_change_from "$at_backup"
  after=$(standings_rows)
  new_player=$(sign_in "despues.$run@prode.test" "Después de la copia $run")
  [ "$(session_status "$new_player")" = 200 ] || die "the player who signed in after the backup has no session"

  # A run of the index CronJob in progress when the game closes: stopped with it, and no other
  # starts until the game is open again.
  kubectl -n "$NS" create job --from="cronjob/$RELEASE-predictions-index" "reindex-$run" >/dev/null
  t0=$SECONDS
  close_the_game
  closed=$((SECONDS - t0)); t0=$SECONDS
  [ "$(index_cronjob_suspended)" = true ] || die "the index CronJob is not suspended while the game is closed"
  ! kubectl -n "$NS" get job "reindex-$run" >/dev/null 2>&1 || die "the index rebuild started before closing is still there"
  restore_backup "$OUT/prode.dump"
  restored=$((SECONDS - t0)); t0=$SECONDS
  open_the_game
  wait_http "$URL/api/partidos-sin-jugar" 60 || die "the game did not answer after the restore"
  opened=$((SECONDS - t0))
  [ "$(index_cronjob_suspended)" = false ] || die "the index CronJob is still suspended once the game is open"

  until_standings_are "$at_backup" "the backup's table again"
  [ "$(psql_pod -c "SELECT count(*) FROM players.jugadores")" = "$jugadores" ] \
    || die "the players are not the backup's"
  [ "$(psql_pod -c "SELECT count(*) FROM players.jugadores WHERE email = 'despues.$run@prode.test'")" = 0 ] \
    || die "the player who signed in after the backup is still there"
  curl -fsS "$URL/api/partidos/$partido" | jq -e '.resultado.goles_local == 2 and .resultado.goles_visitante == 1' >/dev/null \
    || die "the result is not the backup's (2 - 1)"
  [ "$(session_status "$before_player")" = 401 ] || die "a session from before the backup is still open"
  [ "$(session_status "$new_player")" = 401 ] || die "a session from after the backup is open"

  admin=$(sign_in admin@prode.test "Organizador Demo")
  newcomer=$(sign_in "tras.$run@prode.test" "Tras la restauración $run")
  [ "$(session_status "$newcomer")" = 200 ] || die "signing in fails after the restore"
  api PUT "/api/partidos/$partido/resultado" "$admin" '{"goles_local":0,"goles_visitante":3}' >/dev/null
  until_standings_are "$after" "the corrected table again, once the correction was entered again"

  printf '%s\n' "$at_backup" >"$OUT/backup-standings.json"
  printf '%s\n' "$jugadores" >"$OUT/backup-players.txt"
  report "- backup restored (docs/operations.md): pg_dump $taken s ($(du -m "$OUT/prode.dump" | cut -f1) MB); game closed in $closed s, restored in $restored s, open again in $opened s; the backup's standings, $jugadores players, every session closed; the correction entered again scored as the first time"
}

# free_released_volume PV: the cluster's hostPath volume PV, released by a deleted claim, emptied
# and made available again, as `make cluster` first made it (a kept cluster has three).
free_released_volume() {
  local dir
  dir=$(kubectl get pv "$1" -o jsonpath='{.spec.hostPath.path}')
  [[ -n $dir && -d $dir ]] || die "volume $1 has no hostPath directory"
  find "$dir" -mindepth 1 -delete
  kubectl patch pv "$1" --type json -p '[{"op":"remove","path":"/spec/claimRef"}]' >/dev/null
}

# backup_restored_on_a_new_claim: step 8c, after 8b (its backup, $OUT/prode.dump, and the table
# and player count at it): the claim lost (the release uninstalled and its claim deleted, with the
# commands of docs/operations.md), the release installed on a new, empty claim, and the backup
# restored there with the same three steps: the backup's table and players again.
backup_restored_on_a_new_claim() {
  local at_backup jugadores claim volume t0 reinstalled restored
  at_backup=$(cat "$OUT/backup-standings.json")
  jugadores=$(cat "$OUT/backup-players.txt")
  claim=data-$RELEASE-postgresql-0
  volume=$(kubectl -n "$NS" get pvc "$claim" -o jsonpath='{.spec.volumeName}')
  t0=$SECONDS
  helm uninstall "$RELEASE" -n "$NS" --wait --timeout 5m >/dev/null
  kubectl -n "$NS" delete pvc "$claim" --timeout=2m >/dev/null
  helm upgrade --install "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" --set image.tag="$TAG_A" --wait --timeout 10m >/dev/null
  [ "$(kubectl -n "$NS" get pvc "$claim" -o jsonpath='{.spec.volumeName}')" != "$volume" ] \
    || die "the release came back on the deleted claim's volume"
  [ "$(psql_pod -c "SELECT count(*) FROM players.jugadores")" = 0 ] || die "the new claim's database is not empty"
  wait_http "$URL/api/partidos-sin-jugar" 60 || die "the game did not answer on the new claim"
  free_released_volume "$volume"
  reinstalled=$((SECONDS - t0)); t0=$SECONDS
  close_the_game
  restore_backup "$OUT/prode.dump"
  open_the_game
  wait_http "$URL/api/partidos-sin-jugar" 60 || die "the game did not answer after the restore on the new claim"
  restored=$((SECONDS - t0))
  until_standings_are "$at_backup" "the backup's table on the new claim"
  [ "$(psql_pod -c "SELECT count(*) FROM players.jugadores")" = "$jugadores" ] \
    || die "the players on the new claim are not the backup's"
  report "- the claim lost: the release installed on a new one in $reinstalled s, the backup restored there in $restored s (closed, restored, open); the backup's standings and $jugadores players"
}
