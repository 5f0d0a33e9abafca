#!/usr/bin/env bash
# Checks every running service's /metrics with `promtool check metrics` (Prometheus's own
# linter) and that the metrics the operations issue names are there.
# Env: the same PRODE_SVC_PORT_BASE as the stack under test (default: the `make up` one).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=metrics
stack_config

# promtool comes from Debian's prometheus package, unpacked rather than installed so that no
# Prometheus server gets started on the machine (dev/chart-tools.sh).
# shellcheck source=dev/chart-tools.sh
source "$ROOT/dev/chart-tools.sh"
ensure_promtool

declare -A want=(
  [players]="prode_http_requests_total prode_http_request_duration_seconds prode_players_sign_ins_total"
  [fixtures]="prode_http_requests_total prode_http_request_duration_seconds prode_fixtures_results_entered_total"
  [predictions]="prode_http_requests_total prode_http_request_duration_seconds prode_predictions_saved_total prode_predictions_refused_total prode_predictions_save_batch_rows"
  [scoring]="prode_http_requests_total prode_http_request_duration_seconds prode_scoring_duration_seconds prode_scoring_outbox_lag_seconds prode_standings_cache_requests_total prode_league_access_checks_total prode_board_reads_total prode_board_pin_writes_total prode_standings_snapshots_total"
)
status=0
for svc in players fixtures predictions scoring; do
  ok=1
  body=$(curl -fsS "http://127.0.0.1:$(svc_admin_port "$svc")/metrics") || { log "$svc: /metrics did not answer"; status=1; continue; }
  if ! problems=$("$PROMTOOL" check metrics <<<"$body" 2>&1); then
    log "$svc: promtool check metrics: $problems"; ok=0
  fi
  for m in ${want[$svc]}; do
    grep -q "^$m" <<<"$body" || { log "$svc: $m is missing"; ok=0; }
  done
  if [ $ok -eq 1 ]; then log "$svc: promtool check metrics ok, named metrics present"; else status=1; fi
done
exit $status
