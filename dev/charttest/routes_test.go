package charttest

// Acceptance 3: the chart's Ingress and the local nginx (dev/nginx-routes.sh, which stands in
// for the Ingress in `make up` and the e2e tests) route the same paths to the same services.
// Both are generated from charts/prode/routes.yaml; this catches either generator drifting.

import (
	"fmt"
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

// ingressRoutes: the rendered Ingress's paths, backends mapped back to service names. A Prefix
// path is read without its trailing slash, which the Ingress API ignores (the chart writes one
// where a Prefix shares its path with an Exact route: see ingress.yaml).
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
		path := p.Path
		if *p.PathType == "Prefix" && path != "/" {
			path = strings.TrimSuffix(path, "/")
		}
		out = append(out, route{path, string(*p.PathType), svc})
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
	// nginx's own errors in JSON (error_page): internal, no route of the table.
	errorLoc = regexp.MustCompile(`^\s*location = /_prode-error/\d+ \{\s*internal;`)
	anyLoc   = regexp.MustCompile(`^\s*location `)
)

// nginxConfig runs dev/nginx-routes.sh on routesFile, or the chart's when "".
func nginxConfig(t *testing.T, routesFile string) string {
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
	return string(out)
}

// nginxRoutes reads the locations of dev/nginx-routes.sh (on routesFile, or the chart's when "")
// back as Ingress routes: `= p` plus `^~ p/` to one service is Prefix p; `^~ p/` alone is
// Prefix p beside another service's Exact p; `= p` alone is Exact p; `/` is web.
func nginxRoutes(t *testing.T, routesFile string) []route {
	exact, prefix := map[string]string{}, map[string]string{}
	var routes []route
	for _, line := range strings.Split(nginxConfig(t, routesFile), "\n") {
		switch {
		case exactLoc.MatchString(line):
			m := exactLoc.FindStringSubmatch(line)
			exact[m[1]] = m[2]
		case prefixLoc.MatchString(line):
			m := prefixLoc.FindStringSubmatch(line)
			prefix[m[1]] = m[2]
		case rootLoc.MatchString(line):
			routes = append(routes, route{"/", "Prefix", "web"})
		case errorLoc.MatchString(line):
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

// contractPaths: every path of the OpenAPI contract, parameters filled in, plus pages of the
// web app: the requests the Ingress must route.
func contractPaths(t *testing.T) []string {
	data, err := os.ReadFile(filepath.Join(repoRoot, "services", "platform", "contract", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/", "/index.html", "/assets/app.js", "/posiciones", "/api/jugadoresx"}
	for _, m := range regexp.MustCompile(`(?m)^  (/\S+):\s*$`).FindAllStringSubmatch(string(data), -1) {
		paths = append(paths, regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(m[1], "ana@prode.test"))
	}
	if len(paths) < 20 {
		t.Fatalf("only %d paths read from the contract", len(paths))
	}
	return paths
}

// ingressPath is one rendered Ingress path and its service.
type ingressPath struct{ path, pathType, service string }

func renderedPaths(t *testing.T, m *manifests) []ingressPath {
	var out []ingressPath
	for _, p := range m.ingresses(t)[0].Spec.Rules[0].HTTP.Paths {
		out = append(out, ingressPath{p.Path, string(*p.PathType), strings.TrimPrefix(p.Backend.Service.Name, "prode-")})
	}
	return out
}

// routeBySpec: where the Ingress API sends request: the longest matching path, a Prefix
// matching by whole path elements and ignoring its trailing slash, Exact before Prefix.
func routeBySpec(paths []ingressPath, request string) string {
	best, bestLen, bestExact := "", -1, false
	for _, p := range paths {
		exact := p.pathType == "Exact"
		prefix := strings.TrimSuffix(p.path, "/")
		ok := request == p.path
		if !exact {
			ok = p.path == "/" || request == prefix || strings.HasPrefix(request, prefix+"/")
		}
		if !ok {
			continue
		}
		if n := len(prefix); n > bestLen || (n == bestLen && exact && !bestExact) {
			best, bestLen, bestExact = p.service, n, exact
		}
	}
	return best
}

// routeByTraefik: where Traefik's Ingress provider sends request with its defaults: Exact is
// Path(`p`), Prefix is PathPrefix(`p`), a plain string prefix, and the router with the longest
// rule wins (its default priority). Two matching rules of equal length to different services
// are reported: Traefik's choice between them is not defined.
func routeByTraefik(paths []ingressPath, request string) (string, bool) {
	best, bestLen, tie := "", -1, false
	for _, p := range paths {
		matcher, ok := "Path", request == p.path
		if p.pathType == "Prefix" {
			matcher, ok = "PathPrefix", strings.HasPrefix(request, p.path)
		}
		if !ok {
			continue
		}
		switch rule := fmt.Sprintf("%s(`%s`)", matcher, p.path); {
		case len(rule) > bestLen:
			best, bestLen, tie = p.service, len(rule), false
		case len(rule) == bestLen && p.service != best:
			tie = true
		}
	}
	return best, !tie
}

// The cluster runs Traefik: every request of the contract reaches the same service through
// Traefik's reading of the Ingress as through the Ingress API's, sign-up (/api/jugadores, the
// Exact route beside predictions' Prefix) above all. Traefik's reading of the route table
// written as it is, without the chart's trailing slash, must send sign-up to predictions:
// otherwise this test could not tell.
func TestIngressRoutesTheSameOnTraefik(t *testing.T) {
	m := render(t, valueSets[0], "--set", "ingress.className=traefik")
	paths := renderedPaths(t, m)
	for _, request := range contractPaths(t) {
		want := routeBySpec(paths, request)
		got, defined := routeByTraefik(paths, request)
		if want == "" || got != want || !defined {
			t.Errorf("%s: the Ingress API routes it to %q, Traefik to %q (defined: %v)", request, want, got, defined)
		}
	}
	if got := routeBySpec(paths, "/api/jugadores"); got != "players" {
		t.Errorf("/api/jugadores goes to %q, want players", got)
	}
	var plain []ingressPath
	for _, p := range paths {
		if p.path != "/" {
			p.path = strings.TrimSuffix(p.path, "/")
		}
		plain = append(plain, p)
	}
	if got, _ := routeByTraefik(plain, "/api/jugadores"); got != "predictions" {
		t.Errorf("without the trailing slash, Traefik's reading sends /api/jugadores to %q; the check above proves nothing", got)
	}
	if got := routeBySpec(plain, "/api/jugadores"); got != "players" {
		t.Errorf("the trailing slash changed the Ingress API's routing: without it /api/jugadores goes to %q", got)
	}
}
