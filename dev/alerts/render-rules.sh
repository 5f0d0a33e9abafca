#!/usr/bin/env bash
# Prints the chart's alerting rules as a Prometheus rules file: the rule groups of the
# PrometheusRule that helm renders (they are its spec as it is, one indentation level less).
# Usage: dev/alerts/render-rules.sh NAMESPACE [helm flags...]   (the rule filters by namespace)
# Used by dev/test-alerts.sh (promtool) and the cluster test's Prometheus (dev/cluster/prometheus/).
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/../lib.sh"
# shellcheck source=dev/chart-tools.sh
source "$ROOT/dev/chart-tools.sh"
LOG_PREFIX=render-rules
[ $# -ge 1 ] || die "usage: dev/alerts/render-rules.sh NAMESPACE [helm flags...]"
ns=$1; shift
ensure_helm

rule=$("$HELM" template prode "$ROOT/charts/prode" --namespace "$ns" "$@" \
  --set metrics.prometheusRule.enabled=true --show-only templates/prometheusrule.yaml) \
  || die "helm template of the PrometheusRule failed"
rules=$(awk '/^spec:$/ { inspec = 1; next } inspec && /^[^ ]/ { exit } inspec { sub(/^  /, ""); print }' <<<"$rule")
grep -q '^groups:' <<<"$rules" || die "no rule groups under the PrometheusRule's spec"
printf '%s\n' "$rules"
