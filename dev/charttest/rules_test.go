package charttest

// The PrometheusRule's alerts, checked by Prometheus's own promtool: the rules are valid, and
// each alert's expression picks out exactly the bad service from realistic series.

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestPrometheusRules(t *testing.T) {
	promtool := os.Getenv("PROMTOOL")
	if promtool == "" {
		t.Skip("PROMTOOL is not set")
	}
	m := render(t, valueSets[1]) // production: PrometheusRule enabled
	var spec map[string]any
	for _, o := range m.objs {
		if o.GetKind() == "PrometheusRule" {
			spec, _ = o.Object["spec"].(map[string]any)
		}
	}
	if spec == nil {
		t.Fatal("no PrometheusRule in the production render")
	}
	dir := t.TempDir()
	rules, err := yaml.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "rules.yaml"), string(rules))
	if out, err := exec.Command(promtool, "check", "rules", filepath.Join(dir, "rules.yaml")).CombinedOutput(); err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}

	// Each alert's expression over twenty minutes of traffic: players answers 10 % errors,
	// predictions is slow (half of its requests over 0.5 s), scoring's outbox is two minutes
	// behind; everything else is healthy. Expected values: 0.1; the 95th percentile inside the
	// (0.5 s, 1 s] bucket, 0.5 + 0.5 * (95 - 50) / (100 - 50) = 0.95; 120 s.
	exprs := map[string]string{}
	for _, g := range spec["groups"].([]any) {
		for _, r := range g.(map[string]any)["rules"].([]any) {
			rule := r.(map[string]any)
			exprs[rule["alert"].(string)] = rule["expr"].(string)
		}
	}
	for _, name := range []string{"ProdeHighErrorRate", "ProdeHighLatency", "ProdeOutboxLag"} {
		if exprs[name] == "" {
			t.Fatalf("no alert %s", name)
		}
	}
	req := `prode_http_requests_total{namespace="prode",job="prode-players",route="/api/sesion",method="POST",`
	lat := `prode_http_request_duration_seconds_bucket{namespace="prode",route="/api/apuestas",method="POST",status="201",service=`
	test := map[string]any{
		"rule_files":          []string{"rules.yaml"},
		"evaluation_interval": "1m",
		"tests": []any{map[string]any{
			"interval": "1m",
			"input_series": []any{
				map[string]string{"series": req + `service="players",status="500"}`, "values": "0+10x30"},
				map[string]string{"series": req + `service="players",status="200"}`, "values": "0+90x30"},
				map[string]string{"series": req + `service="fixtures",status="200"}`, "values": "0+100x30"},
				map[string]string{"series": req + `service="fixtures",status="404"}`, "values": "0+50x30"},
				map[string]string{"series": lat + `"predictions",le="0.5"}`, "values": "0+50x30"},
				map[string]string{"series": lat + `"predictions",le="1"}`, "values": "0+100x30"},
				map[string]string{"series": lat + `"predictions",le="+Inf"}`, "values": "0+100x30"},
				map[string]string{"series": lat + `"fixtures",le="0.5"}`, "values": "0+100x30"},
				map[string]string{"series": lat + `"fixtures",le="1"}`, "values": "0+100x30"},
				map[string]string{"series": lat + `"fixtures",le="+Inf"}`, "values": "0+100x30"},
				map[string]string{"series": `prode_scoring_outbox_lag_seconds{namespace="prode",job="prode-scoring"}`, "values": "0x10 120x20"},
				// Another release's namespace: never counted.
				map[string]string{"series": `prode_scoring_outbox_lag_seconds{namespace="other",job="prode-scoring"}`, "values": "0x10 999x20"},
			},
			"promql_expr_test": []any{
				map[string]any{"expr": exprs["ProdeHighErrorRate"], "eval_time": "20m",
					"exp_samples": []any{map[string]any{"labels": `{service="players"}`, "value": 0.1}}},
				map[string]any{"expr": exprs["ProdeHighLatency"], "eval_time": "20m",
					"exp_samples": []any{map[string]any{"labels": `{service="predictions"}`, "value": 0.95}}},
				map[string]any{"expr": exprs["ProdeOutboxLag"], "eval_time": "20m",
					"exp_samples": []any{map[string]any{"labels": `{}`, "value": 120}}},
			},
			"alert_rule_test": []any{
				// No lag at 5m: nothing. Lag since 10m, over the 5-minute `for` at 20m: firing.
				map[string]any{"alertname": "ProdeOutboxLag", "eval_time": "5m"},
				map[string]any{"alertname": "ProdeOutboxLag", "eval_time": "20m", "exp_alerts": []any{map[string]any{
					"exp_labels": map[string]string{"severity": "critical"},
					"exp_annotations": map[string]string{
						"summary":     "Prode scoring is behind on results",
						"description": "The oldest unscored result event is 2m 0s old (threshold 60s): is scoring running and reaching PostgreSQL?",
					},
				}}},
			},
		}},
	}
	data, err := yaml.Marshal(test)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "test.yaml"), string(data))
	cmd := exec.Command(promtool, "test", "rules", "test.yaml")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool test rules: %v\n%s", err, out)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
