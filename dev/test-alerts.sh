#!/usr/bin/env bash
# The alerts step of `make test` (also `make test-alerts`; seconds once helm is built): the
# chart's PrometheusRule exactly as helm renders it with values-production.yaml (release and
# namespace "prode"; dev/alerts/render-rules.sh), checked by Prometheus's own promtool and
# unit-tested by `promtool test rules` with the scenarios of dev/alerts/*.test.yaml. Every alert
# of the rule must have a test, and every metric it reads must be one the services register.
# helm and promtool come from dev/chart-tools.sh (cached in $TOOLS, dev/lib.sh).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=dev/chart-tools.sh
source "$ROOT/dev/chart-tools.sh"
LOG_PREFIX=test-alerts
cd "$ROOT"

ensure_promtool

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

dev/alerts/render-rules.sh prode -f charts/prode/values-production.yaml >"$dir/rules.yaml" || exit 1
"$PROMTOOL" check rules "$dir/rules.yaml" >&2 || die "promtool check rules refused the chart's rules"

alerts=$(sed -n 's/^ *- alert: *//p' "$dir/rules.yaml")
[ -n "$alerts" ] || die "the PrometheusRule has no alerts"
untested=()
for a in $alerts; do
  grep -qE "alertname: *$a([ ,}]|\$)" dev/alerts/*.test.yaml || untested+=("$a")
done
[ ${#untested[@]} -eq 0 ] || die "alerts without a test in dev/alerts/: ${untested[*]}"

# The scenarios feed promtool series by name, so a metric renamed in the services would leave
# them green and the alert blind: every metric the rules use must be registered in the code
# (a histogram's series by its name without _bucket, _sum or _count).
unregistered=()
while IFS= read -r m; do
  base=${m%_bucket}; base=${base%_sum}; base=${base%_count}
  # Given as an option (Name: "…") or to the platform's metrics.Registrar (r.Gauge("…", …)).
  grep -rqE --include='*.go' --exclude='*_test.go' "(Name: *|\.(Counter|Counters|Gauge|Histogram)\( *)\"$base\"" services/ ||
    unregistered+=("$m")
done < <(grep -o 'prode_[a-z0-9_]*' "$dir/rules.yaml" | sort -u)
[ ${#unregistered[@]} -eq 0 ] || die "the alerts use metrics no service registers: ${unregistered[*]}"

# promtool reads rule_files relative to each test file: tests and rules side by side.
cp dev/alerts/*.test.yaml "$dir/"
(cd "$dir" && "$PROMTOOL" test rules ./*.test.yaml) >&2 || die "promtool test rules failed (dev/alerts/)"
log "passed: every alert ($(paste -sd ' ' <<<"$alerts")) has its scenarios in dev/alerts/"
