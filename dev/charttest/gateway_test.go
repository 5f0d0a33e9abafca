package charttest

// The Ingress for any controller, and the Gateway API HTTPRoute made from the same route table.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The HTTPRoute values of the tests: a Traefik Gateway's HTTPS listener.
var gatewayArgs = []string{
	"--set", "gateway.enabled=true",
	"--set", "gateway.parentRefs[0].name=traefik-gateway,gateway.parentRefs[0].namespace=traefik,gateway.parentRefs[0].sectionName=websecure",
	"--set", "gateway.hostnames[0]=prode.example.org",
}

// httpRoute is what the tests read of an HTTPRoute (the API server checks the rest against the
// Gateway API's CRD: TestHTTPRouteOnAPIServer).
type httpRoute struct {
	Spec struct {
		ParentRefs []map[string]any `json:"parentRefs"`
		Hostnames  []string         `json:"hostnames"`
		Rules      []struct {
			Matches []struct {
				Path *struct {
					Type  string `json:"type"`
					Value string `json:"value"`
				} `json:"path"`
			} `json:"matches"`
			BackendRefs []struct {
				Name string `json:"name"`
				Port int32  `json:"port"`
			} `json:"backendRefs"`
		} `json:"rules"`
	} `json:"spec"`
}

func (m *manifests) httpRoutes(t *testing.T) []httpRoute {
	t.Helper()
	var out []httpRoute
	for _, o := range m.objs {
		if o.GetKind() != "HTTPRoute" {
			continue
		}
		if o.GetAPIVersion() != "gateway.networking.k8s.io/v1" {
			t.Errorf("HTTPRoute %s: apiVersion %s, want the GA gateway.networking.k8s.io/v1", o.GetName(), o.GetAPIVersion())
		}
		data, err := json.Marshal(o.Object)
		if err != nil {
			t.Fatal(err)
		}
		var r httpRoute
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("HTTPRoute %s: %v", o.GetName(), err)
		}
		out = append(out, r)
	}
	return out
}

// servicePort: the port named name of the rendered Service svc (0 when there is none).
func (m *manifests) servicePort(t *testing.T, svc, name string) int32 {
	for _, s := range typed[corev1.Service](t, m, "Service") {
		if s.Name != svc {
			continue
		}
		for _, p := range s.Spec.Ports {
			if p.Name == name {
				return p.Port
			}
		}
	}
	return 0
}

// gatewayRoutes: the rendered HTTPRoute's matches as Ingress routes (PathPrefix is the Ingress's
// Prefix: both match whole path elements), each backend checked to be its Service's http port.
func gatewayRoutes(t *testing.T, m *manifests) []route {
	t.Helper()
	routes := m.httpRoutes(t)
	if len(routes) != 1 {
		t.Fatalf("want one HTTPRoute, got %d", len(routes))
	}
	var out []route
	for _, rule := range routes[0].Spec.Rules {
		if len(rule.BackendRefs) != 1 {
			t.Fatalf("a rule with %d backends, want 1: %+v", len(rule.BackendRefs), rule)
		}
		b := rule.BackendRefs[0]
		if want := m.servicePort(t, b.Name, "http"); want == 0 || b.Port != want {
			t.Errorf("backend %s port %d, want the Service's http port (%d)", b.Name, b.Port, want)
		}
		for _, match := range rule.Matches {
			if match.Path == nil {
				t.Fatalf("a match without a path in the rule to %s", b.Name)
			}
			pathType := map[string]string{"Exact": "Exact", "PathPrefix": "Prefix"}[match.Path.Type]
			if pathType == "" {
				t.Errorf("%s: path match type %q, want Exact or PathPrefix", match.Path.Value, match.Path.Type)
			}
			out = append(out, route{match.Path.Value, pathType, strings.TrimPrefix(b.Name, "prode-")})
		}
	}
	slices.SortFunc(out, func(a, b route) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// The HTTPRoute routes exactly what the Ingress routes, to the same Services and ports, in
// every value set; it is attached where the values say, and rendered only when enabled.
func TestHTTPRouteHasTheIngressRoutes(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			if render(t, vs).has("HTTPRoute") {
				t.Fatal("an HTTPRoute without gateway.enabled")
			}
			m := render(t, vs, gatewayArgs...)
			ingress, gateway := ingressRoutes(t, m), gatewayRoutes(t, m)
			if onlyIngress, onlyGateway := diffRoutes(ingress, gateway); len(onlyIngress)+len(onlyGateway) > 0 || len(ingress) != len(gateway) {
				t.Errorf("the Ingress and the HTTPRoute differ:\n only in the Ingress: %v\n only in the HTTPRoute: %v", onlyIngress, onlyGateway)
			}
			// The pair that needs the precedence rule: sign-up (POST /api/jugadores) is players'.
			for _, want := range []route{{"/api/jugadores", "Exact", "players"}, {"/api/jugadores", "Prefix", "predictions"}, {"/", "Prefix", "web"}} {
				if !slices.Contains(gateway, want) {
					t.Errorf("the HTTPRoute has no %v: %v", want, gateway)
				}
			}
			r := m.httpRoutes(t)[0]
			wantParent := map[string]any{"name": "traefik-gateway", "namespace": "traefik", "sectionName": "websecure"}
			if len(r.Spec.ParentRefs) != 1 || !reflect.DeepEqual(r.Spec.ParentRefs[0], wantParent) || !slices.Equal(r.Spec.Hostnames, []string{"prode.example.org"}) {
				t.Errorf("HTTPRoute parentRefs %v, hostnames %v", r.Spec.ParentRefs, r.Spec.Hostnames)
			}
		})
	}
}

// bodySizeAnnotation is the one controller annotation the chart writes (ingress.maxBodySize).
const bodySizeAnnotation = "nginx.ingress.kubernetes.io/proxy-body-size"

// The Ingress is the same for every controller: its class is the only thing the class changes,
// and it carries no controller's annotation that the values did not ask for (maxBodySize asks
// for ingress-nginx's body size).
func TestIngressFitsAnyController(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			base := render(t, vs).ingresses(t)
			for _, class := range []string{"traefik", "nginx", "some-other-controller"} {
				ing := render(t, vs, "--set", "ingress.className="+class).ingresses(t)
				if len(ing) != 1 || ing[0].Spec.IngressClassName == nil || *ing[0].Spec.IngressClassName != class {
					t.Fatalf("ingress.className=%s: %+v", class, ing)
				}
				got, want := ing[0].DeepCopy(), base[0].DeepCopy()
				got.Spec.IngressClassName, want.Spec.IngressClassName = nil, nil
				if !reflect.DeepEqual(got, want) {
					t.Errorf("ingress.className=%s changed more than the class:\n%+v\n%+v", class, got, want)
				}
			}
			for key := range base[0].Annotations {
				if key != bodySizeAnnotation && (strings.Contains(key, "nginx") || strings.Contains(key, "traefik")) {
					t.Errorf("Ingress annotation %s: no value file asks for a controller's annotation", key)
				}
			}
		})
	}
	// Annotations are the values' own, as they are, beside the body size.
	ing := render(t, valueSets[0], "--set", "ingress.className=traefik", "--set-string",
		`ingress.annotations.traefik\.ingress\.kubernetes\.io/router\.entrypoints=websecure`).ingresses(t)
	if got := ing[0].Annotations; len(got) != 2 || got["traefik.ingress.kubernetes.io/router.entrypoints"] != "websecure" || got[bodySizeAnnotation] == "" {
		t.Errorf("Ingress annotations %v, want the one set and the body size", got)
	}
}

// importMaxBody is the largest body a service takes: fixtures' ImportMaxBody, a tournament file.
func importMaxBody(t *testing.T) int64 {
	files, err := filepath.Glob(filepath.Join(repoRoot, "services", "fixtures", "internal", "http", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^const ImportMaxBody = (\d+) << (\d+)$`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := decl.FindSubmatch(src); m != nil {
			n, _ := strconv.ParseInt(string(m[1]), 10, 64)
			shift, _ := strconv.Atoi(string(m[2]))
			return n << shift
		}
	}
	t.Fatal("no `const ImportMaxBody = N << M` in services/fixtures/internal/http")
	return 0
}

// nginxSize reads an nginx size ("3m", "512k", "1048576") in bytes.
func nginxSize(t *testing.T, s string) int64 {
	m := regexp.MustCompile(`^(\d+)([kKmMgG]?)$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("%q is not an nginx size", s)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	return n << map[string]int{"": 0, "k": 10, "m": 20, "g": 30}[strings.ToLower(m[2])]
}

// A body too large is refused by the service, in the API's JSON shape, not by the proxy in front
// with its own HTML page: ingress-nginx (production's and kind's class) and the local nginx
// let through every body a service could take. ingress-nginx's default (1m) would not.
func TestProxiesLetTheServicesJudgeBodySizes(t *testing.T) {
	largest := importMaxBody(t)
	for _, vs := range valueSets {
		ing := render(t, vs).ingresses(t)
		size, ok := ing[0].Annotations[bodySizeAnnotation]
		if !ok {
			t.Errorf("%s: the Ingress has no %s: ingress-nginx would refuse bodies over 1m itself, in HTML", vs.name, bodySizeAnnotation)
			continue
		}
		if got := nginxSize(t, size); got <= largest {
			t.Errorf("%s: %s %s (%d bytes), want above the largest body a service takes (%d)", vs.name, bodySizeAnnotation, size, got, largest)
		}
	}
	conf := nginxConfig(t, "")
	m := regexp.MustCompile(`(?m)^\s*client_max_body_size (\S+);`).FindStringSubmatch(conf)
	if m == nil {
		t.Fatal("the local nginx sets no client_max_body_size")
	}
	if got := nginxSize(t, m[1]); got <= largest {
		t.Errorf("the local nginx's client_max_body_size %s (%d bytes), want above %d", m[1], got, largest)
	}
}

var httpRouteResource = schema.GroupVersionResource{Group: "gateway.networking.k8s.io", Version: "v1", Resource: "httproutes"}

// On the real API server with the Gateway API's CRD (standard channel): the HTTPRoute installs
// and upgrades with no warning, alone (ingress.enabled=false) as on a Traefik cluster, and the
// API server does check it: a route the CRD refuses is refused.
func TestHTTPRouteOnAPIServer(t *testing.T) {
	c := apiServer(t)
	ns := "prode-gateway"
	c.restrictedNamespace(t, ns)
	args := append([]string{"prode", chartDir, "--namespace", ns, "--timeout", "2m",
		"--set", "ingress.enabled=false,publicOrigin=https://prode.example.org",
		"--set", "networkPolicy.ingressController.namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=traefik",
		"--set", "networkPolicy.ingressController.podSelector.matchLabels.app\\.kubernetes\\.io/name=traefik"}, gatewayArgs...)
	ctrl := c.startFakeControllers(t, ns, nil)
	out := helmClean(t, append([]string{"install"}, args...)...)
	helmClean(t, append([]string{"upgrade"}, append(args, "--set", "image.tag=9.9.9")...)...)
	ctrl.halt()
	if !strings.Contains(out, "The HTTPRoute prode attaches to traefik/traefik-gateway (websecure)") {
		t.Errorf("NOTES do not say where the HTTPRoute attaches:\n%s", out)
	}

	stored, err := c.dyn.Resource(httpRouteResource).Namespace(ns).Get(context.Background(), "prode", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the HTTPRoute is not on the API server: %v", err)
	}
	installed := &manifests{objs: []*unstructured.Unstructured{stored}}
	rendered := render(t, valueSet{"gateway", nil}, gatewayArgs...)
	if got, want := len(installed.httpRoutes(t)[0].Spec.Rules), len(rendered.httpRoutes(t)[0].Spec.Rules); got != want || got == 0 {
		t.Errorf("the stored HTTPRoute has %d rules, the rendered one %d", got, want)
	}

	// The CRD's own validation is live: a path that is not absolute is refused.
	bad := stored.DeepCopy()
	bad.SetName("prode-bad")
	bad.SetResourceVersion("")
	rules, _, _ := unstructured.NestedSlice(bad.Object, "spec", "rules")
	rule := rules[0].(map[string]any)
	rule["matches"] = []any{map[string]any{"path": map[string]any{"type": "PathPrefix", "value": "api/partidos"}}}
	if err := unstructured.SetNestedSlice(bad.Object, rules, "spec", "rules"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.dyn.Resource(httpRouteResource).Namespace(ns).Create(context.Background(), bad, metav1.CreateOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("an HTTPRoute with the relative path api/partidos: %v, want it refused as invalid", err)
	}
}
