#!/usr/bin/env bash
# Checks the logs of a stack (dev/up.sh) after traffic: no line may carry a secret, and every
# API error nginx saw must be findable in a service's log by its request id.
# Usage: dev/check-logs.sh [STATE_DIR]   (default $PRODE_STATE_DIR, else .dev)
#   - no session cookie (prode_sesion=...), session token (v1.<claims>.<mac>), dev sign-in code
#     (dev.<payload>.<mac>), Google code/ID token (4/0..., eyJ...eyJ...) or Cookie header;
#   - each nginx access-log line for /api/... with status >= 400 has rid=<id>, and that id is
#     in a service log line (the services log every request with its request_id, which is the
#     request_id of the error body).
# dev/test.sh runs it on the e2e stack's logs (.test/stack/logs, .test/stack/nginx/logs).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=check-logs
STATE=${1:-${PRODE_STATE_DIR:-$ROOT/.dev}}
shopt -s nullglob
svc_logs=("$STATE"/logs/*.log)
nginx_logs=("$STATE"/nginx/logs/*.log)
[ ${#svc_logs[@]} -gt 0 ] || die "no service logs in $STATE/logs"
[ -s "$STATE/nginx/logs/access.log" ] || die "no nginx access log in $STATE/nginx/logs"

bad=0
secrets='prode_sesion=[^;"[:space:]]+|v1\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|dev\.[A-Za-z0-9_-]{8,}\.[0-9a-fA-F]{16,}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}|4/0[A-Za-z0-9_-]{20,}|[Cc]ookie'
if grep -EnH "$secrets" "${svc_logs[@]}" "${nginx_logs[@]}" >&2; then
  log "FAIL: the lines above carry a token, a code or a cookie"; bad=1
fi
lines=$(cat "${svc_logs[@]}" "${nginx_logs[@]}" | wc -l)

# API errors seen by nginx -> their request ids in the services' logs.
errors=0 missing=0
while read -r rid; do
  errors=$((errors + 1))
  if [ -z "$rid" ] || [ "$rid" = "-" ]; then
    missing=$((missing + 1)); log "an API error without a request id in the nginx log"; continue
  fi
  if ! grep -qF "\"request_id\":\"$rid\"" "${svc_logs[@]}"; then
    missing=$((missing + 1)); log "request id $rid (an API error) is in no service log"
  fi
done < <(awk '$4 ~ /^\/api\// && $6 >= 400 { rid = ""; for (i = 7; i <= NF; i++) if ($i ~ /^rid=/) rid = substr($i, 5); print rid }' "$STATE/nginx/logs/access.log")
[ "$missing" -eq 0 ] || bad=1
log "$lines log lines checked, no secrets: $([ $bad -eq 0 ] && echo yes || echo see above); $errors API errors through nginx, $((errors - missing)) found in the service logs by request id"
[ "$bad" -eq 0 ]
