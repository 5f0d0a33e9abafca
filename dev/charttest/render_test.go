package charttest

// Offline checks: helm lint and the rendered manifests of every value set.

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Acceptance 1: helm lint --strict passes for every value set and for every values file in
// the chart (values.schema.json included), a values-*.yaml added later too.
func TestLint(t *testing.T) {
	sets := append([]valueSet{}, valueSets...)
	files, err := filepath.Glob(filepath.Join(chartDir, "values-*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		if !slices.ContainsFunc(sets, func(vs valueSet) bool { return slices.Contains(vs.args, f) }) {
			sets = append(sets, valueSet{name, []string{"-f", f}})
		}
	}
	if len(sets) < len(valueSets) {
		t.Fatalf("only %d value sets", len(sets))
	}
	for _, vs := range sets {
		t.Run(vs.name, func(t *testing.T) {
			out, errOut, err := helm(t, append([]string{"lint", "--strict", chartDir}, vs.args...)...)
			if err != nil || !strings.Contains(out, "0 chart(s) failed") {
				t.Fatalf("helm lint --strict: %v\n%s%s", err, out, errOut)
			}
		})
	}
}

// The schema and the chart's own checks refuse what the services would refuse at start.
func TestRefusesBadValues(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"dev sign-in and Google", []string{"--set", "auth.google.clientId=x,auth.google.clientSecret=y"}, "auth.devLogin cannot be on"},
		{"no sign-in at all", []string{"--set", "auth.devLogin=false"}, "auth.google.clientId"},
		{"external database without URLs", []string{"--set", "postgresql.enabled=false"}, "externalDatabase"},
		{"external Redis without URL", []string{"--set", "redis.enabled=false"}, "externalRedis"},
		{"a short session key", []string{"--set", "session.key=c2hvcnQ="}, "at least 32 bytes"},
		{"a misspelt value", []string{"--set", "players.replicas=3"}, "replicas"},
		{"no limits", []string{"--set", "web.resources.limits=null"}, "limits"},
		{"an unknown knock-out rule", []string{"--set", "scoring.knockout=penales"}, "knockout"},
		{"no live streams at all", []string{"--set", "scoring.liveMaxStreams=0"}, "liveMaxStreams"},
		{"PgBouncer's wait past the write timeout", []string{"--set", "pgbouncer.queryWaitSeconds=30"}, "queryWaitSeconds"},
		{"PgBouncer never retrying a login", []string{"--set", "pgbouncer.loginRetrySeconds=0"}, "loginRetrySeconds"},
		{"a negative proxy hop count", []string{"--set", "trustedProxyHops=-1"}, "trustedProxyHops"},
		{"no proxy hop count", []string{"--set", "trustedProxyHops=null"}, "trustedProxyHops"},
		{"a short previous session key", []string{"--set", "session.previousKey=c2hvcnQ="}, "session.previousKey must be base64 of at least 32 bytes"},
		{"a previous session key beside an existing Secret", []string{"--set", "session.existingSecret=prode-session,session.previousKey=" + testKey}, "session-key-previous"},
		{"a Gateway route attached to nothing", []string{"--set", "gateway.enabled=true"}, "gateway.parentRefs"},
		{"a parentRef without a name", []string{"--set", "gateway.enabled=true,gateway.parentRefs[0].namespace=traefik"}, "name"},
		{"a DNS address that is no CIDR", []string{"--set", "networkPolicy.dns.ipBlocks[0]=169.254.20.10"}, "ipBlocks"},
		{"extra rules for an unknown component", []string{"--set", "networkPolicy.perComponent.frontend.extraEgress[0].ports[0].port=443"}, "frontend"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, err := helm(t, append([]string{"template", "prode", chartDir}, c.args...)...)
			if err == nil || !strings.Contains(errOut, c.want) {
				t.Errorf("helm template %v: err %v, stderr %q; want a failure mentioning %q", c.args, err, errOut, c.want)
			}
		})
	}
}

// Acceptance 4: requests and limits (cpu and memory) on every container of every pod template,
// hook Jobs, the test Pod and the bundled databases included.
func TestRequestsAndLimitsOnEveryContainer(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			ws := render(t, vs).workloads(t)
			if len(ws) < 6 {
				t.Fatalf("only %d pod templates rendered", len(ws))
			}
			for _, w := range ws {
				for _, c := range append(append([]corev1.Container{}, w.spec.InitContainers...), w.spec.Containers...) {
					for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
						req, okReq := c.Resources.Requests[res]
						lim, okLim := c.Resources.Limits[res]
						switch {
						case !okReq || !okLim:
							t.Errorf("%s container %s: %s request or limit missing", w, c.Name, res)
						case req.Cmp(lim) > 0:
							t.Errorf("%s container %s: %s request %s above its limit %s", w, c.Name, res, req.String(), lim.String())
						}
					}
				}
			}
		})
	}
}

// Acceptance 4: a PodDisruptionBudget for each Deployment with more than one replica (or an
// autoscaler whose minimum is), selecting exactly its pods; none for single pods, where a
// budget would block node drains.
func TestPodDisruptionBudgets(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs)
			minReplicas := map[string]int32{}
			for _, h := range m.hpas(t) {
				if h.Spec.ScaleTargetRef.Kind == "Deployment" && h.Spec.MinReplicas != nil {
					minReplicas[h.Spec.ScaleTargetRef.Name] = *h.Spec.MinReplicas
				}
			}
			pdbs := m.pdbs(t)
			multi := 0
			for _, d := range m.deployments(t) {
				replicas, hpa := minReplicas[d.Name]
				if !hpa {
					if d.Spec.Replicas == nil {
						t.Errorf("Deployment %s has neither replicas nor an autoscaler", d.Name)
						continue
					}
					replicas = *d.Spec.Replicas
				}
				var covering []string
				for _, p := range pdbs {
					sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
					if err != nil {
						t.Fatal(err)
					}
					if sel.Matches(labels.Set(d.Spec.Template.Labels)) {
						covering = append(covering, p.Name)
					}
				}
				switch {
				case replicas > 1 && len(covering) != 1:
					t.Errorf("Deployment %s runs %d pods but has %d PodDisruptionBudgets %v, want 1", d.Name, replicas, len(covering), covering)
				case replicas <= 1 && len(covering) != 0:
					t.Errorf("Deployment %s runs one pod but has PodDisruptionBudgets %v", d.Name, covering)
				}
				if replicas > 1 {
					multi++
				}
			}
			if len(pdbs) != multi {
				t.Errorf("%d PodDisruptionBudgets for %d multi-pod Deployments", len(pdbs), multi)
			}
		})
	}
}

// Pod Security "restricted" is checked by the API server (install_test.go); this adds what it
// does not require: a read-only root filesystem and a numeric non-root user everywhere, and no
// service-account token in pods that never call the API.
func TestHardenedPods(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			for _, w := range render(t, vs).workloads(t) {
				psc := w.spec.SecurityContext
				if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 ||
					psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
					t.Errorf("%s: pod securityContext %+v: want runAsNonRoot, a numeric non-root runAsUser, seccomp RuntimeDefault", w, psc)
				}
				if w.spec.AutomountServiceAccountToken == nil || *w.spec.AutomountServiceAccountToken {
					t.Errorf("%s: mounts a service-account token", w)
				}
				for _, c := range w.spec.Containers {
					sc := c.SecurityContext
					if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
						sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
						sc.Capabilities == nil || len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" || len(sc.Capabilities.Add) != 0 {
						t.Errorf("%s container %s: securityContext %+v: want no privilege escalation, a read-only root, all capabilities dropped", w, c.Name, sc)
					}
				}
			}
		})
	}
}

// The Go services' probes follow DESIGN.md section 3 on the admin port, and the grace period
// covers the preStop sleep, DRAIN_DELAY and SHUTDOWN_TIMEOUT, so no pod is killed mid-drain.
// The in-cluster Redis is probed by the kubelet's TCP dial, not by a command exec'd in its
// container, and is restarted only after a minute without one: on a busy node the exec'd
// redis-cli timed out three times in a row, the kubelet restarted a serving Redis, and the
// services saw connections refused (CI's cluster test).
func TestRedisProbesSurviveABusyNode(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			w, ok := render(t, vs).component(t, "redis")
			if !ok {
				t.Skip("no in-cluster Redis")
			}
			c := w.spec.Containers[0]
			for kind, p := range map[string]*corev1.Probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe} {
				if p == nil || p.TCPSocket == nil || p.Exec != nil {
					t.Errorf("redis: %s probe %+v, want a TCP probe", kind, p)
				}
			}
			if l := c.LivenessProbe; l != nil && l.PeriodSeconds*l.FailureThreshold < 60 {
				t.Errorf("redis: restarted after %d failed probes %d s apart, want a minute at least", l.FailureThreshold, l.PeriodSeconds)
			}
		})
	}
}

func TestProbesAndShutdown(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs)
			cfg := m.configMap(t, "prode-config").Data
			drain, err1 := time.ParseDuration(cfg["DRAIN_DELAY"])
			timeout, err2 := time.ParseDuration(cfg["SHUTDOWN_TIMEOUT"])
			if err1 != nil || err2 != nil {
				t.Fatalf("DRAIN_DELAY %q, SHUTDOWN_TIMEOUT %q", cfg["DRAIN_DELAY"], cfg["SHUTDOWN_TIMEOUT"])
			}
			for _, name := range goServices {
				w, ok := m.component(t, name)
				if !ok {
					t.Fatalf("no %s workload", name)
				}
				c := w.spec.Containers[0]
				probe := func(kind string, p *corev1.Probe, path string) {
					if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != path || p.HTTPGet.Port.String() != "admin" {
						t.Errorf("%s: %s probe %+v, want GET %s on the admin port", name, kind, p, path)
					}
				}
				probe("startup", c.StartupProbe, "/healthz")
				probe("liveness", c.LivenessProbe, "/healthz")
				probe("readiness", c.ReadinessProbe, "/readyz")
				// A single slow probe on a busy node must not take a serving pod out, and draining
				// must be seen before the server stops accepting (DRAIN_DELAY after SIGTERM).
				// A DRAIN_DELAY under two probes of Kubernetes' shortest period (1 s), as
				// values-kind.yaml's 1 s for quick restarts, no probe can see: there the preStop
				// sleep alone keeps a rollout clean.
				if r := c.ReadinessProbe; r != nil {
					seen := time.Duration(r.PeriodSeconds*r.FailureThreshold) * time.Second
					if r.FailureThreshold < 2 || (seen >= drain && drain >= 2*time.Second) {
						t.Errorf("%s: readiness fails after %d probes %d s apart (%v): want at least 2, seen within DRAIN_DELAY %v", name, r.FailureThreshold, r.PeriodSeconds, seen, drain)
					}
				}
				if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Sleep == nil {
					t.Fatalf("%s: no preStop sleep", name)
				}
				preStop := time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
				grace := time.Duration(*w.spec.TerminationGracePeriodSeconds) * time.Second
				if need := preStop + drain + timeout; grace <= need {
					t.Errorf("%s: grace period %v, but preStop %v + DRAIN_DELAY %v + SHUTDOWN_TIMEOUT %v = %v", name, grace, preStop, drain, timeout, need)
				}
				ports := map[string]int32{}
				for _, p := range c.Ports {
					ports[p.Name] = p.ContainerPort
				}
				if ports["http"] != 8080 || ports["admin"] != 9090 || cfg["HTTP_ADDR"] != ":8080" || cfg["ADMIN_ADDR"] != ":9090" {
					t.Errorf("%s: ports %v with HTTP_ADDR %q, ADMIN_ADDR %q", name, ports, cfg["HTTP_ADDR"], cfg["ADMIN_ADDR"])
				}
			}
		})
	}
}

// Each service gets its own database role; only players and scoring get Redis (the standings
// cache, the shared rate limits), both with the release's prefix; the players service gets
// exactly one sign-in mode.
func TestServiceEnvironment(t *testing.T) {
	eachGoContainer(t, func(t *testing.T, name string, c corev1.Container) {
		db, ok := envValue(c, "DATABASE_URL")
		switch {
		case !ok:
			t.Errorf("%s: no DATABASE_URL", name)
		case db.ValueFrom != nil && db.ValueFrom.SecretKeyRef != nil:
			if key := db.ValueFrom.SecretKeyRef.Key; key != name+"-database-url" {
				t.Errorf("%s: DATABASE_URL from key %s", name, key)
			}
		case strings.HasPrefix(db.Value, "postgres://prode_"+name+"@"):
			// Through PgBouncer: the role's password in PGPASSWORD (connections_test.go).
			if pw, ok := envValue(c, "PGPASSWORD"); !ok || pw.ValueFrom == nil || pw.ValueFrom.SecretKeyRef == nil ||
				pw.ValueFrom.SecretKeyRef.Key != name+"-password" {
				t.Errorf("%s: DATABASE_URL %q without its role's password in PGPASSWORD", name, db.Value)
			}
		case !strings.HasPrefix(db.Value, "postgres://prode_"+name+":"):
			t.Errorf("%s: DATABASE_URL %q is not its own role prode_%s", name, db.Value, name)
		}
		usesRedis := name == "players" || name == "scoring"
		if _, redis := envValue(c, "REDIS_URL"); redis != usesRedis {
			t.Errorf("%s: REDIS_URL set: %v", name, redis)
		}
		if prefix, _ := envValue(c, "REDIS_PREFIX"); usesRedis && prefix.Value != "prode:" {
			t.Errorf("%s: REDIS_PREFIX %q, want the release's %q", name, prefix.Value, "prode:")
		}
		if _, ok := envValue(c, "SESSION_KEY"); !ok {
			t.Errorf("%s: no SESSION_KEY", name)
		}
		// The Go runtime's soft memory limit is a share of the container's, whatever the values
		// say: the service is told the container's limit, not given it as GOMEMLIMIT.
		if m, ok := envValue(c, "MEMORY_LIMIT"); !ok || m.ValueFrom == nil || m.ValueFrom.ResourceFieldRef == nil ||
			m.ValueFrom.ResourceFieldRef.Resource != "limits.memory" {
			t.Errorf("%s: MEMORY_LIMIT %+v, want it from the container's limits.memory", name, m)
		}
		if m, ok := envValue(c, "GOMEMLIMIT"); ok {
			t.Errorf("%s: GOMEMLIMIT %+v set: the runtime's soft limit would be the whole container's", name, m)
		}
		// The leagues' maximums reach scoring, which enforces them (values.yaml scoring.grupos),
		// and so does the live streams' (scoring.liveMaxStreams, which the alert names).
		for env, want := range map[string]string{"GRUPOS_MAX_POR_JUGADOR": "50", "GRUPOS_MAX_MIEMBROS": "5000", "LIVE_MAX_STREAMS": "20000"} {
			if v, ok := envValue(c, env); ok != (name == "scoring") || (ok && v.Value != want) {
				t.Errorf("%s: %s set: %v, value %q; want it (%s) on scoring only", name, env, ok, v.Value, want)
			}
		}
		if name == "players" {
			dev, _ := envValue(c, "DEV_LOGIN")
			_, google := envValue(c, "GOOGLE_CLIENT_ID")
			if (dev.Value == "true") == google {
				t.Errorf("players: DEV_LOGIN=%s with a Google client: %v; want exactly one", dev.Value, google)
			}
		}
	})
}

// The migrations Job is a hook that runs before the Deployments change on upgrade, and on
// install either before them (external database) or once the bundled one exists; its Secret,
// when the chart makes it, is a hook weighted before it.
func TestMigrationsHook(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs)
			var job *workload
			for _, w := range m.workloads(t) {
				if w.labels["app.kubernetes.io/component"] == "migrations" {
					job = &w
				}
			}
			if job == nil || job.kind != "Job" {
				t.Fatal("no migrations Job")
			}
			if c := job.spec.Containers[0]; len(c.Command) == 0 || !strings.HasSuffix(c.Command[0], "/migrate") {
				t.Errorf("migrations Job runs %v, want migrate", c.Command)
			}
			bundled := m.has("StatefulSet")
			wantHook := "pre-install,pre-upgrade"
			if bundled {
				wantHook = "post-install,pre-upgrade"
			}
			a := job.annotations
			if a["helm.sh/hook"] != wantHook || a["helm.sh/hook-delete-policy"] != "before-hook-creation,hook-succeeded" {
				t.Errorf("migrations Job annotations %v, want hook %s", a, wantHook)
			}
			jobWeight, _ := strconv.Atoi(a["helm.sh/hook-weight"])
			secretName := ""
			for _, f := range job.spec.Containers[0].EnvFrom {
				if f.SecretRef != nil {
					secretName = f.SecretRef.Name
				}
			}
			for _, s := range m.secrets(t) {
				if s.Name != secretName {
					continue
				}
				w, _ := strconv.Atoi(s.Annotations["helm.sh/hook-weight"])
				if s.Annotations["helm.sh/hook"] != wantHook || w >= jobWeight {
					t.Errorf("Secret %s: hook %q weight %d; want hook %s weighted before the Job (%d)", s.Name, s.Annotations["helm.sh/hook"], w, wantHook, jobWeight)
				}
			}
		})
	}
}

// The ServiceMonitor and PrometheusRule need the Prometheus Operator's CRDs: they are rendered
// only when enabled. The Ingress's class and TLS come from the values.
func TestOptionalResources(t *testing.T) {
	def := render(t, valueSets[0])
	if def.has("ServiceMonitor") || def.has("PrometheusRule") || def.has("HorizontalPodAutoscaler") {
		t.Error("default values render a ServiceMonitor, PrometheusRule or HorizontalPodAutoscaler")
	}
	ing := def.ingresses(t)
	if len(ing) != 1 || ing[0].Spec.IngressClassName != nil || len(ing[0].Spec.TLS) != 0 {
		t.Errorf("default Ingress: %+v, want no class and no TLS", ing)
	}
	prod := render(t, valueSets[1])
	if !prod.has("ServiceMonitor") || !prod.has("PrometheusRule") || len(prod.hpas(t)) != 5 {
		t.Error("production values: want a ServiceMonitor, a PrometheusRule and 5 HorizontalPodAutoscalers")
	}
	ing = prod.ingresses(t)
	if len(ing) != 1 || ing[0].Spec.IngressClassName == nil || *ing[0].Spec.IngressClassName != "nginx" ||
		len(ing[0].Spec.TLS) != 1 || ing[0].Spec.TLS[0].SecretName != "prode-tls" || ing[0].Spec.Rules[0].Host != "prode.example.org" {
		t.Errorf("production Ingress: %+v, want class nginx, TLS prode-tls, host prode.example.org", ing)
	}
	if origin := prod.configMap(t, "prode-config").Data["PUBLIC_ORIGIN"]; origin != "https://prode.example.org" {
		t.Errorf("production PUBLIC_ORIGIN %q, want https://prode.example.org", origin)
	}
	if render(t, valueSets[0], "--set", "ingress.enabled=false").has("Ingress") {
		t.Error("ingress.enabled=false still renders an Ingress")
	}
	if render(t, valueSets[0], "--set", "networkPolicy.enabled=false").has("NetworkPolicy") {
		t.Error("networkPolicy.enabled=false still renders NetworkPolicies")
	}
}

// Every Go service gets TRUSTED_PROXY_HOPS (the client address behind the ingress): 1 by
// default in every value set, and trustedProxyHops when set, 0 (ignore X-Forwarded-For)
// included, which a template's `default` would silently turn back into 1.
func TestTrustedProxyHopsReachEveryService(t *testing.T) {
	type hopsCase struct {
		name string
		vs   valueSet
		args []string
		want string
	}
	var cases []hopsCase
	for _, vs := range valueSets {
		cases = append(cases, hopsCase{vs.name, vs, nil, "1"})
	}
	cases = append(cases,
		hopsCase{"two proxies", valueSets[0], []string{"--set", "trustedProxyHops=2"}, "2"},
		hopsCase{"no proxy trusted", valueSets[0], []string{"--set", "trustedProxyHops=0"}, "0"},
		hopsCase{"production, two proxies", valueSets[1], []string{"--set", "trustedProxyHops=2"}, "2"},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := render(t, c.vs, c.args...)
			for _, name := range goServices {
				w, ok := m.component(t, name)
				if !ok || w.kind != "Deployment" {
					t.Fatalf("no %s Deployment", name)
				}
				if got, ok := m.containerEnv(t, w.spec.Containers[0], "TRUSTED_PROXY_HOPS"); !ok || got != c.want {
					t.Errorf("%s: TRUSTED_PROXY_HOPS %q (set: %v), want %q", name, got, ok, c.want)
				}
			}
		})
	}
}
