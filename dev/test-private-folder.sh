#!/usr/bin/env bash
# `make up` from a checkout inside a private folder (issue 18): a copy of this working tree in
# $(mktemp -d)/prode, whose parent is mode 700 like root's home, started with dev/up.sh on free
# ports; the game must answer on the printed URL and /api/partidos-sin-jugar, dev/down.sh must
# stop everything, a second dev/up.sh must reuse the same data, and dev/down.sh delete must leave
# nothing behind (as root, PostgreSQL's folder outside the checkout included). The folder's own
# permissions must stay as they were. dev/test.sh all runs it as the step "private folder".
# Quick: the Go build cache is shared, and the web app is not built (PRODE_WEB_DIST: this
# checkout's web/dist when it is built, else the placeholder page).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=test-private-folder
cd "$ROOT"
ensure_packages

parent=$(mktemp -d)   # mode 700, owned by whoever runs this
checkout=$parent/prode
STACK=()
cleanup() {
  if [ ${#STACK[@]} -gt 0 ] && [ -x "$checkout/dev/down.sh" ]; then
    env "${STACK[@]}" "$checkout/dev/down.sh" delete >/dev/null 2>&1 || true
  fi
  rm -rf "$parent"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

before=$(stat -c '%U %a' "$parent")
[ "${before#* }" = 700 ] || die "mktemp -d gave $parent mode ${before#* }, not 700"
# The working tree as it is (with the changes not committed yet, which `git clone` would miss):
# the files git tracks or would (not what .gitignore leaves out: dependencies, builds), but the
# top-level dot-folders (state of other tools, .git). Without git: the tree but those.
mkdir "$checkout"
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  # A file deleted or written while we copy (someone editing) is not a failure of the copy.
  git -C "$ROOT" ls-files -z --cached --others --exclude-standard | grep -zv '^\.' \
    | { tar -C "$ROOT" --null -T - --ignore-failed-read -cf - 2>/dev/null || true; } | tar -C "$checkout" -xf -
else
  tar -C "$ROOT" --exclude='./.*' --exclude=node_modules --exclude=./web/dist --exclude=./bin -cf - . | tar -C "$checkout" -xf -
fi
if [ ! -f "$checkout/dev/up.sh" ] || [ ! -f "$checkout/go.work" ]; then die "the copy of $ROOT in $checkout is incomplete"; fi

web=$ROOT/web/dist
[ -f "$web/index.html" ] || web=$checkout/web/dist   # not there: the placeholder page
ports=$(stack_free_ports)
read -ra STACK <<<"$ports"
declare -A port=()
for kv in "${STACK[@]}"; do port[${kv%%=*}]=${kv#*=}; done
STACK+=(PRODE_STATE_DIR="$checkout/.dev" PRODE_WEB_DIST="$web")
state=$checkout/.dev

# up_and_check: dev/up.sh from the private checkout, then the page and the API through nginx.
up_and_check() {
  local out url body
  out=$(env "${STACK[@]}" "$checkout/dev/up.sh") || die "dev/up.sh failed from $checkout"
  url=${out#Prode: }
  [[ $url == http://localhost:*/ ]] || die "dev/up.sh printed '$out'"
  curl -fsS --max-time 10 -o /dev/null "$url" || die "$url does not answer"
  body=$(curl -fsS --max-time 10 "${url}api/partidos-sin-jugar") || die "${url}api/partidos-sin-jugar does not answer"
  [[ $body == '[{'* ]] || die "${url}api/partidos-sin-jugar: no matches: ${body:0:200}"
  log "the game answers on $url from $checkout"
}

# nothing_listens: every port of the stack is free again.
nothing_listens() {
  local p base=${port[PRODE_SVC_PORT_BASE]}
  for p in "${port[PRODE_PORT]}" "${port[PRODE_PG_PORT]}" "${port[PRODE_REDIS_PORT]}" \
    $((base + 1)) $((base + 2)) $((base + 3)) $((base + 4)) $((base + 1001)) $((base + 1002)) $((base + 1003)) $((base + 1004)); do
    ! port_busy "$p" || die "port $p still in use after dev/down.sh"
  done
}

up_and_check
home=$(pg_home "$state/pg")
if [ "$(id -u)" -eq 0 ]; then
  # postgres cannot reach the checkout: its cluster is in a folder of its own outside.
  [ "$home" != "$state/pg" ] || die "as root in a private folder, the cluster is in $home, which postgres cannot reach"
  pg_outside_ok "$home" || die "$home is not postgres's own with mode 700"
fi
# A row written now must still be there after down and up: the second up reuses the cluster.
pg_psql "${port[PRODE_PG_PORT]}" -d prode -c "CREATE TABLE public.private_folder_mark (n int); INSERT INTO public.private_folder_mark VALUES (18)"
env "${STACK[@]}" "$checkout/dev/down.sh" || die "dev/down.sh failed"
nothing_listens
up_and_check
[ "$(pg_home "$state/pg")" = "$home" ] || die "the second dev/up.sh moved the cluster from $home to $(pg_home "$state/pg")"
[ "$(pg_psql "${port[PRODE_PG_PORT]}" -d prode -tAc 'SELECT n FROM public.private_folder_mark')" = 18 ] \
  || die "the second dev/up.sh did not keep the data"
env "${STACK[@]}" "$checkout/dev/down.sh" delete || die "dev/down.sh delete failed"
STACK=()
nothing_listens
[ ! -e "$state" ] || die "dev/down.sh delete left $state"
[ ! -e "$home" ] || die "dev/down.sh delete left $home"
after=$(stat -c '%U %a' "$parent")
[ "$after" = "$before" ] || die "$parent was '$before', is '$after': the user's folders must keep their permissions"
log "ok: up, down, up again and down delete from a checkout in a private folder ($parent, $before)"
