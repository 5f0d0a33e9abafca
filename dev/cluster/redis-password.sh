# shellcheck shell=bash
# The cluster test's step 7c: the bundled Redis's password changed twice as docs/operations.md
# says, each with one `helm upgrade`: the generated one (its Secret deleted), then to the
# operator's own (redis.existingSecret), while players read the standings, the open matches and
# their session and save predictions through the ingress (step 7b's load). Each time it checks:
#   - the upgrade gave Redis a new password (32 letters and digits, or the operator's exactly),
#     restarted Redis with it and rolled players and scoring, and left every other Deployment's
#     pods alone;
#   - every answer meanwhile is a 2xx: while Redis and some pods disagree on the password, the
#     services ride it out as they do a Redis outage;
#   - players and scoring use the new Redis with the new password (redis_used_again), and Redis
#     refuses the old one;
#   - no container of the release restarted.
# Sourced by dev/test-cluster.sh, whose kubectl, helm, report, die, running_pod,
# restarted_containers, NS, RELEASE, VALUES, TAG_A, OUT and VEGETA it uses (and load_pid, which
# its cleanup stops), with
# dependency-kills.sh's redis_used_again and redis_exec, and the load's targets of step 7b.

# pod_templates: each Deployment's pod template, by name (JSON), to tell which an upgrade changed.
pod_templates() {
  kubectl -n "$NS" get deploy -o json | jq -c '[.items[] | {key: .metadata.name, value: .spec.template}] | from_entries'
}

# The operator's own password of step 7c's second change: characters that a redis:// URL's user
# part would need escaped, a space and a non-ASCII letter; the services get it apart from the URL
# (REDIS_PASSWORD), Redis as one argument (--requirepass).
own_redis_password='p@ss:w/rd #1 ü?%'

# redis_password_changed_under_load: the two changes of docs/operations.md, one after the other:
# the generated password (its Secret deleted), then the operator's own (redis.existingSecret).
redis_password_changed_under_load() {
  redis_password_change "its Secret deleted" delete_generated_redis_password
  redis_password_change "the operator's own, with characters a URL would need escaped" \
    create_own_redis_password --set redis.existingSecret="$RELEASE-redis-own"
}

delete_generated_redis_password() {
  kubectl -n "$NS" delete secret "$RELEASE-redis-password" >/dev/null
}

create_own_redis_password() {
  kubectl -n "$NS" create secret generic "$RELEASE-redis-own" --from-literal=password="$own_redis_password" >/dev/null
}

# redis_password_change WHAT PREPARE [HELM_ARGS...]: PREPARE (a function), then one `helm upgrade`
# with HELM_ARGS, under 20 requests/s, and the checks above.
redis_password_change() {
  local what=$1 prepare=$2 old_password new_password old_redis t0 upgraded
  local counted cached rolled total not_2xx refused restarts
  shift 2
  [ -f "$OUT/crash-targets.txt" ] || die "step 7c needs step 7b's load targets"
  # The password Redis runs with, as its own pod has it (REDISCLI_AUTH: the probe's).
  old_password=$(redis_exec sh -c 'printf %s "$REDISCLI_AUTH"')
  [ -n "$old_password" ] || die "could not read Redis's password from its pod"
  old_redis=$(running_pod redis uid)
  pod_templates >"$OUT/password-templates-before.json"
  TZ=UTC "$VEGETA" attack -targets "$OUT/crash-targets.txt" -rate 20/1s -duration 0 -timeout 10s \
    -output "$OUT/password.bin" &
  load_pid=$!
  sleep 3

  t0=$SECONDS
  "$prepare"
  helm upgrade "$RELEASE" charts/prode -n "$NS" "${VALUES[@]}" --set image.tag="$TAG_A" "$@" --wait --timeout 6m >/dev/null
  upgraded=$((SECONDS - t0))
  read -r counted cached < <(redis_used_again) || true
  [ -n "$cached" ] || die "players and scoring did not use Redis with its new password"
  sleep 3
  kill -INT "$load_pid"; wait "$load_pid" || true; load_pid=""

  new_password=$(redis_exec sh -c 'printf %s "$REDISCLI_AUTH"')
  if [ -z "$new_password" ] || [ "$new_password" = "$old_password" ]; then die "Redis's password did not change"; fi
  if [ "$prepare" = delete_generated_redis_password ]; then
    [[ $new_password =~ ^[A-Za-z0-9]{32}$ ]] || die "the new Redis password is not 32 letters and digits"
  else
    [ "$new_password" = "$own_redis_password" ] || die "Redis does not run with the operator's password"
  fi
  [ "$(running_pod redis uid)" != "$old_redis" ] || die "Redis was not restarted with its new password"
  pod_templates >"$OUT/password-templates-after.json"
  rolled=$(jq -rn --slurpfile a "$OUT/password-templates-before.json" --slurpfile b "$OUT/password-templates-after.json" \
    '$a[0] as $a | $b[0] as $b | [$b | keys[] | select($a[.] != $b[.])] | join(" ")')
  [ "$rolled" = "$RELEASE-players $RELEASE-redis $RELEASE-scoring" ] \
    || die "a new Redis password changed the pods of: ${rolled:-nothing} (want Redis, players and scoring)"
  refused=$(redis_exec env REDISCLI_AUTH="$old_password" redis-cli ping 2>&1 || true)
  [[ $refused == *WRONGPASS* ]] || die "Redis answered the old password with: $refused"

  TZ=UTC "$VEGETA" encode -to json "$OUT/password.bin" >"$OUT/password.jsonl"
  total=$(wc -l <"$OUT/password.jsonl")
  not_2xx=$(jq -s '[.[] | select((.code / 100 | floor) != 2)] | length' "$OUT/password.jsonl")
  report "- Redis's password changed ($what; one helm upgrade in $upgraded s) under 20 requests/s: Redis restarted with the new one, players and scoring rolled, nothing else; a refused sign-in counted in it $counted s after the upgrade, the standings cached in it $cached s after that; the old password refused (WRONGPASS); $total requests, $not_2xx not 2xx (status codes: $(jq -sc 'group_by(.code) | map({(.[0].code | tostring): length}) | add' "$OUT/password.jsonl"))"
  [ "$not_2xx" = 0 ] || die "$not_2xx answers were not 2xx while Redis's password changed (see $OUT/password.jsonl)"
  restarts=$(restarted_containers | grep "^$NS/" || true)
  [ -z "$restarts" ] || die "containers restarted while Redis's password changed: $restarts"
}
