package charttest

// Acceptance 3: the chart's Ingress and the local nginx (dev/nginx-routes.sh, which stands in
// for the Ingress in `make up` and the e2e tests) route the same paths to the same services.
// Both are generated from charts/prode/routes.yaml; this catches either generator drifting.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// route is one Ingress path: "Exact /api/jugadores -> players".
type route struct{ path, pathType, service string }

func (r route) String() string { return r.pathType + " " + r.path + " -> " + r.service }

// ingressRoutes: the rendered Ingress's paths, backends mapped back to service names.
func ingressRoutes(t *testing.T, m *manifests) []route {
	ings := m.ingresses(t)
	if len(ings) != 1 || len(ings[0].Spec.Rules) == 0 {
		t.Fatalf("want one Ingress with rules, got %d", len(ings))
	}
	var out []route
	for _, p := range ings[0].Spec.Rules[0].HTTP.Paths {
		svc := strings.TrimPrefix(p.Backend.Service.Name, "prode-")
		if p.Backend.Service.Port.Name != "http" {
			t.Errorf("%s: backend port %+v, want the Service's http port", p.Path, p.Backend.Service.Port)
		}
		out = append(out, route{p.Path, string(*p.PathType), svc})
	}
	slices.SortFunc(out, func(a, b route) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// The locations nginx-routes.sh writes, one per line; what follows proxy_pass (headers, ...)
// does not change where a request goes.
var (
	exactLoc  = regexp.MustCompile(`^\s*location = (\S+) \{\s*proxy_pass http://([a-z0-9-]+);.*\}$`)
	prefixLoc = regexp.MustCompile(`^\s*location \^~ (\S+)/ \{\s*proxy_pass http://([a-z0-9-]+);.*\}$`)
	rootLoc   = regexp.MustCompile(`^\s*(location / \{|include \S+/nginx-web\.conf;)`)
	anyLoc    = regexp.MustCompile(`^\s*location `)
)

// nginxRoutes runs dev/nginx-routes.sh (on routesFile, or the chart's when "") and reads its
// locations back as Ingress routes: `= p` plus `^~ p/` to one service is Prefix p; `^~ p/`
// alone is Prefix p beside another service's Exact p; `= p` alone is Exact p; `/` is web.
func nginxRoutes(t *testing.T, routesFile string) []route {
	dist := t.TempDir()
	if err := os.WriteFile(filepath.Join(dist, "index.html"), []byte("web"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{}
	if routesFile != "" {
		args = append(args, routesFile)
	}
	cmd := exec.Command(filepath.Join(repoRoot, "dev", "nginx-routes.sh"), args...)
	cmd.Env = append(os.Environ(), "WEB_DIST="+dist, "LISTEN_PORT=8080")
	for _, s := range goServices {
		cmd.Env = append(cmd.Env, strings.ToUpper(s)+"_PORT=1")
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dev/nginx-routes.sh: %v\n%s", err, stderr.String())
	}
	exact, prefix := map[string]string{}, map[string]string{}
	var routes []route
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case exactLoc.MatchString(line):
			m := exactLoc.FindStringSubmatch(line)
			exact[m[1]] = m[2]
		case prefixLoc.MatchString(line):
			m := prefixLoc.FindStringSubmatch(line)
			prefix[m[1]] = m[2]
		case rootLoc.MatchString(line):
			routes = append(routes, route{"/", "Prefix", "web"})
		case anyLoc.MatchString(line):
			t.Fatalf("dev/nginx-routes.sh: a location this test cannot read: %q", line)
		}
	}
	for p, svc := range prefix {
		routes = append(routes, route{p, "Prefix", svc})
	}
	for p, svc := range exact {
		if prefix[p] != svc { // not the `= p` half of a Prefix
			routes = append(routes, route{p, "Exact", svc})
		}
	}
	slices.SortFunc(routes, func(a, b route) int { return strings.Compare(a.String(), b.String()) })
	return routes
}

func diffRoutes(a, b []route) (onlyA, onlyB []route) {
	for _, r := range a {
		if !slices.Contains(b, r) {
			onlyA = append(onlyA, r)
		}
	}
	for _, r := range b {
		if !slices.Contains(a, r) {
			onlyB = append(onlyB, r)
		}
	}
	return onlyA, onlyB
}

func TestIngressMatchesLocalNginx(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			ingress := ingressRoutes(t, render(t, vs))
			nginx := nginxRoutes(t, "")
			if len(ingress) < 9 {
				t.Fatalf("only %d Ingress routes: %v", len(ingress), ingress)
			}
			onlyIngress, onlyNginx := diffRoutes(ingress, nginx)
			if len(onlyIngress)+len(onlyNginx) > 0 {
				t.Errorf("the Ingress and the local nginx differ:\n only in the Ingress: %v\n only in nginx: %v", onlyIngress, onlyNginx)
			}
		})
	}

	// The check must notice a difference: nginx generated from a route table missing a route.
	t.Run("notices drift", func(t *testing.T) {
		table, err := os.ReadFile(filepath.Join(chartDir, "routes.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, line := range strings.Split(string(table), "\n") {
			if !strings.Contains(line, "path: /api/apuestas,") {
				kept = append(kept, line)
			}
		}
		drifted := filepath.Join(t.TempDir(), "routes.yaml")
		if err := os.WriteFile(drifted, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		onlyIngress, onlyNginx := diffRoutes(ingressRoutes(t, render(t, valueSets[0])), nginxRoutes(t, drifted))
		want := route{"/api/apuestas", "Prefix", "predictions"}
		if len(onlyIngress) != 1 || onlyIngress[0] != want || len(onlyNginx) != 0 {
			t.Errorf("drift not reported as %v: only in the Ingress %v, only in nginx %v", want, onlyIngress, onlyNginx)
		}
	})
}
