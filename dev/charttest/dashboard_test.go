package charttest

// The Grafana dashboard (metrics.grafanaDashboard): a ConfigMap only when enabled, with the
// labels Grafana's sidecar selects by and charts/prode/dashboards/prode.json as it is, whose
// queries cannot rot: every metric they ask Prometheus for is one the services' code registers,
// and the panels an operator needs are there.

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const dashboardConfigMap = "prode-dashboard"

// Off by default (it means nothing without a Grafana); on in the production example, which
// assumes kube-prometheus-stack.
func TestGrafanaDashboardOnlyWhenEnabled(t *testing.T) {
	for _, vs := range valueSets {
		rendered := false
		for _, o := range render(t, vs).objs {
			rendered = rendered || o.GetKind() == "ConfigMap" && o.GetName() == dashboardConfigMap
		}
		if want := vs.name == "production"; rendered != want {
			t.Errorf("%s values: dashboard ConfigMap rendered %v, want %v", vs.name, rendered, want)
		}
	}
}

func TestGrafanaDashboard(t *testing.T) {
	m := render(t, valueSets[0], "--set", "metrics.grafanaDashboard.enabled=true",
		"--set", "metrics.grafanaDashboard.annotations.grafana_folder=Prode")
	cm := m.configMap(t, dashboardConfigMap)
	if cm.Labels["grafana_dashboard"] != "1" {
		t.Errorf("labels %v: want grafana_dashboard: \"1\", the label kube-prometheus-stack's Grafana sidecar looks for", cm.Labels)
	}
	if cm.Annotations["grafana_folder"] != "Prode" {
		t.Errorf("annotations %v: want the given grafana_folder", cm.Annotations)
	}
	file, err := os.ReadFile(filepath.Join(chartDir, "dashboards", "prode.json"))
	if err != nil {
		t.Fatal(err)
	}
	body := cm.Data["prode.json"]
	if body != strings.TrimRight(string(file), "\n") {
		t.Fatal("the ConfigMap's prode.json differs from charts/prode/dashboards/prode.json")
	}
	var dashboard map[string]any
	if err := json.Unmarshal([]byte(body), &dashboard); err != nil {
		t.Fatalf("prode.json is not JSON: %v", err)
	}
	uid, _ := dashboard["uid"].(string)
	title, _ := dashboard["title"].(string)
	if uid == "" || title == "" {
		t.Error("the dashboard needs a uid and a title")
	}
	exprs := dashboardExprs(dashboard)
	if len(exprs) == 0 {
		t.Fatal("the dashboard has no queries")
	}

	// Every selector names a metric of ours, and each one is registered in the services' code
	// (a histogram's series by its name without _bucket, _sum or _count).
	registered := registeredMetrics(t)
	selector := regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_:]*)\{`)
	for _, e := range exprs {
		found := selector.FindAllStringSubmatch(e, -1)
		if len(found) == 0 {
			t.Errorf("query %q selects no metric with labels (every query filters by namespace)", e)
		}
		for _, f := range found {
			name := f[1]
			if !registered[name] && !registered[strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")] {
				t.Errorf("query %q asks for %s, which no service registers (services/**/*.go)", e, name)
			}
		}
		if !strings.Contains(e, `namespace="$namespace"`) {
			t.Errorf("query %q does not pick the release by its namespace", e)
		}
	}

	// What an operator comes for: requests, 5xx apart from 499 hang-ups, latency percentiles,
	// the outbox lag, where standings answers came from, the live streams, open and refused, and
	// the rate limits decided without Redis.
	all := strings.Join(exprs, "\n")
	for _, want := range []string{
		`rate(prode_http_requests_total{`,
		`status=~"5.."`,
		`status="499"`,
		`histogram_quantile(0.5,`, `histogram_quantile(0.95,`, `histogram_quantile(0.99,`,
		`prode_scoring_outbox_lag_seconds{`,
		`prode_standings_cache_requests_total{`,
		`prode_live_streams_open{`, `prode_live_streams_refused_total{`,
		`prode_rate_limit_local_decisions_total{`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no dashboard query contains %s", want)
		}
	}
}

// dashboardExprs returns every "expr" in the dashboard (panels' queries, wherever they nest).
func dashboardExprs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "expr" {
				out = append(out, s)
				continue
			}
			out = append(out, dashboardExprs(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, dashboardExprs(x)...)
		}
	}
	return out
}

// registeredMetrics returns the metric names the services' Go code gives, as an option
// (Name: "prode_...") or to the platform's metrics.Registrar (r.Gauge("prode_...", ...)).
func registeredMetrics(t *testing.T) map[string]bool {
	t.Helper()
	name := regexp.MustCompile(`(?:Name:\s*|\.(?:Counter|Counters|Gauge|Histogram)\(\s*)"(prode_[a-z0-9_]+)"`)
	names := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(repoRoot, "services"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range name.FindAllSubmatch(src, -1) {
			names[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !names["prode_http_requests_total"] {
		t.Fatalf("found no prode_http_requests_total in services/: the search is broken (found %v)", names)
	}
	return names
}
