package charttest

// The PostgreSQL connection budget (docs/operations.md, "PostgreSQL connections"): every value
// set's pods, at their autoscalers' maxima and during a rolling update, fit in the database's
// max_connections less the reserve, counted here from the rendered manifests themselves; a
// release that would not fit is refused with its numbers; and PgBouncer, when on, stands between
// PostgreSQL and every service but scoring, whose listener needs a session of its own.

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	yamlv3 "go.yaml.in/yaml/v3"
)

// What a program opens besides its pool, as the code does it.
const (
	listenerConns = 1 // scoring's outbox listener: its own pgx.Conn (scoring/internal/scoring/consumer.go)
	migrateConns  = 1 // migrate: golang-migrate pins one connection per schema, one schema after another
	seedConns     = 2 // fixtures-seed: postgres.Connect(ctx, url, 2)
	reindexConns  = 1 // migrate reindex (the predictions-index CronJob): one pgx.Conn
)

// connectionCount is what a rendered release may open at once.
type connectionCount struct {
	toPostgres int      // connections PostgreSQL serves
	toBouncer  int      // connections PgBouncer's clients open to it
	parts      []string // how, for messages
}

// connectionsOf counts from the manifests: each Go service's pods at its autoscaler's maximum
// (else its replicas) plus what its rolling update adds (drainingPods), times DB_MAX_CONNS, to
// PgBouncer when its DATABASE_URL points there; scoring's listener on each pod; PgBouncer's pods
// (with the same) times its roles times default_pool_size; the largest hook Job (Helm runs
// them one at a time); and each CronJob, whose run may come at any time, a hook Job's included.
func connectionsOf(t *testing.T, m *manifests) connectionCount {
	t.Helper()
	hpaMax := map[string]int{}
	for _, h := range m.hpas(t) {
		hpaMax[h.Spec.ScaleTargetRef.Name] = int(h.Spec.MaxReplicas)
	}
	var c connectionCount
	for _, d := range m.deployments(t) {
		comp := d.Spec.Template.Labels["app.kubernetes.io/component"]
		if comp != "pgbouncer" && !slices.Contains(goServices, comp) {
			continue // web, the bundled Redis: no database
		}
		pods, ok := hpaMax[d.Name]
		if !ok {
			pods = int(*d.Spec.Replicas)
		}
		pods += rollingExtra(t, m, d)
		ctr := d.Spec.Template.Spec.Containers[0]
		switch {
		case slices.Contains(goServices, comp):
			pool := envInt(t, m, ctr, "DB_MAX_CONNS")
			n := pods * pool
			if behindPgBouncer(t, m, ctr) {
				c.toBouncer += n
				c.parts = append(c.parts, fmt.Sprintf("%s %d pods x %d to PgBouncer", comp, pods, pool))
			} else {
				c.toPostgres += n
				c.parts = append(c.parts, fmt.Sprintf("%s %d pods x %d", comp, pods, pool))
			}
			if comp == "scoring" {
				c.toPostgres += pods * listenerConns
				c.parts = append(c.parts, fmt.Sprintf("scoring's listeners %d", pods*listenerConns))
			}
		case comp == "pgbouncer":
			ini := m.configMap(t, d.Name).Data["pgbouncer.ini"]
			pool, reserve := iniInt(t, ini, "default_pool_size"), iniInt(t, ini, "reserve_pool_size")
			if max := iniInt(t, ini, "max_db_connections"); max != 0 {
				t.Fatalf("pgbouncer.ini: max_db_connections %d; the count assumes per-role pools only", max)
			}
			roles, _ := m.containerEnv(t, ctr, "PGBOUNCER_ROLES")
			n := pods * len(strings.Fields(roles)) * (pool + reserve)
			c.toPostgres += n
			c.parts = append(c.parts, fmt.Sprintf("pgbouncer %d pods x %d roles x %d", pods, len(strings.Fields(roles)), pool+reserve))
		}
	}
	jobs := 0
	for _, j := range m.jobs(t) {
		switch j.Spec.Template.Labels["app.kubernetes.io/component"] {
		case "migrations":
			jobs = max(jobs, migrateConns)
		case "fixtures-seed":
			jobs = max(jobs, seedConns)
		}
	}
	c.toPostgres += jobs
	c.parts = append(c.parts, fmt.Sprintf("hook Jobs %d", jobs))
	for _, cj := range m.cronJobs(t) {
		switch comp := cj.Spec.JobTemplate.Spec.Template.Labels["app.kubernetes.io/component"]; comp {
		case "predictions-index":
			c.toPostgres += reindexConns
			c.parts = append(c.parts, fmt.Sprintf("predictions-index CronJob %d", reindexConns))
		default:
			t.Fatalf("CronJob %s (component %q): the count does not know its connections", cj.Name, comp)
		}
	}
	return c
}

// rollingExtra is how many pods beyond its replicas a Deployment's rolling update may run with
// their pools open: its surge (new pods), and the pod being replaced, which keeps its pool while
// it drains (preStop, then for a Go service DRAIN_DELAY). One drains at a time only if the
// Deployment waits that long (minReadySeconds) before replacing the next one; the cluster test
// saw three drain at once without the wait (dev/cluster/connections.sh).
func rollingExtra(t *testing.T, m *manifests, d appsv1.Deployment) int {
	t.Helper()
	ru := d.Spec.Strategy.RollingUpdate
	if ru == nil || ru.MaxSurge == nil {
		t.Fatalf("Deployment %s: no rollingUpdate.maxSurge", d.Name)
	}
	if ru.MaxSurge.Type != intstr.Int {
		t.Fatalf("Deployment %s: maxSurge %s; the count handles a number of pods only", d.Name, ru.MaxSurge.String())
	}
	ctr := d.Spec.Template.Spec.Containers[0]
	drain := int32(0)
	if ctr.Lifecycle != nil && ctr.Lifecycle.PreStop != nil && ctr.Lifecycle.PreStop.Sleep != nil {
		drain = int32(ctr.Lifecycle.PreStop.Sleep.Seconds)
	}
	if v, ok := m.containerEnv(t, ctr, "DRAIN_DELAY"); ok && v != "" {
		delay, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("Deployment %s: DRAIN_DELAY %q", d.Name, v)
		}
		drain += int32(delay.Seconds())
	}
	if d.Spec.MinReadySeconds < drain {
		t.Errorf("Deployment %s: minReadySeconds %d, shorter than a pod's drain (%d s): more than one replaced pod may hold its pool at once",
			d.Name, d.Spec.MinReadySeconds, drain)
	}
	return ru.MaxSurge.IntValue() + 1
}

// envInt is a container's numeric environment variable.
func envInt(t *testing.T, m *manifests, c corev1.Container, name string) int {
	t.Helper()
	v, ok := m.containerEnv(t, c, name)
	n, err := strconv.Atoi(v)
	if !ok || err != nil {
		t.Fatalf("container %s: %s = %q", c.Name, name, v)
	}
	return n
}

// databaseURL is a container's DATABASE_URL when the chart writes it out ("" when it comes from
// the operator's Secret: those URLs name the external database itself).
func databaseURL(t *testing.T, m *manifests, c corev1.Container) *url.URL {
	t.Helper()
	v, literal := m.containerEnv(t, c, "DATABASE_URL")
	if !literal {
		return nil
	}
	u, err := url.Parse(strings.ReplaceAll(v, "$(DB_PASSWORD)", "pw"))
	if err != nil {
		t.Fatalf("container %s: DATABASE_URL %q: %v", c.Name, v, err)
	}
	return u
}

func behindPgBouncer(t *testing.T, m *manifests, c corev1.Container) bool {
	u := databaseURL(t, m, c)
	return u != nil && u.Host == "prode-pgbouncer:6432"
}

var iniLine = regexp.MustCompile(`(?m)^\s*([a-z_]+)\s*=\s*(.*?)\s*$`)

// iniValue is a setting of pgbouncer.ini ("" when absent).
func iniValue(ini, key string) string {
	for _, m := range iniLine.FindAllStringSubmatch(ini, -1) {
		if m[1] == key {
			return m[2]
		}
	}
	return ""
}

func iniInt(t *testing.T, ini, key string) int {
	t.Helper()
	n, err := strconv.Atoi(iniValue(ini, key))
	if err != nil {
		t.Fatalf("pgbouncer.ini: %s = %q", key, iniValue(ini, key))
	}
	return n
}

// chartValues: values.yaml with the value set's -f files over it (what the templates see).
func chartValues(t *testing.T, vs valueSet) map[string]any {
	t.Helper()
	files := []string{chartDir + "/values.yaml"}
	for i, a := range vs.args {
		if a == "-f" {
			files = append(files, vs.args[i+1])
		}
	}
	merged := map[string]any{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := yamlv3.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		mergeValues(merged, v)
	}
	return merged
}

func mergeValues(dst, src map[string]any) {
	for k, v := range src {
		if sub, ok := v.(map[string]any); ok {
			if d, ok := dst[k].(map[string]any); ok {
				mergeValues(d, sub)
				continue
			}
		}
		dst[k] = v
	}
}

// intSetting is a numeric value; absent, PostgreSQL's own default (max_connections 100) or the
// chart's reserve (10) after an error, so that the count still says where it stands.
func intSetting(t *testing.T, vals map[string]any, section, key string, fallback int) int {
	t.Helper()
	s, _ := vals[section].(map[string]any)
	n, ok := s[key].(int)
	if !ok {
		t.Errorf("values: no %s.%s (counting with %d)", section, key, fallback)
		return fallback
	}
	return n
}

var maxConnectionsArg = regexp.MustCompile(`^max_connections=(\d+)$`)

// budgetOf is the database's max_connections less the reserve: for the bundled PostgreSQL, the
// setting it is started with (the value must be that one), else externalDatabase's.
func budgetOf(t *testing.T, vs valueSet, m *manifests) int {
	t.Helper()
	vals := chartValues(t, vs)
	if sts := m.statefulSets(t); len(sts) > 0 {
		maxConns := 0
		for _, a := range sts[0].Spec.Template.Spec.Containers[0].Args {
			if g := maxConnectionsArg.FindStringSubmatch(a); g != nil {
				maxConns, _ = strconv.Atoi(g[1])
			}
		}
		if maxConns == 0 {
			t.Error("the bundled PostgreSQL is not started with max_connections (counting with its default, 100): the budget and the server may disagree")
			maxConns = 100
		}
		if v := intSetting(t, vals, "postgresql", "maxConnections", maxConns); v != maxConns {
			t.Errorf("postgresql.maxConnections %d, but the server is started with %d", v, maxConns)
		}
		return maxConns - intSetting(t, vals, "postgresql", "reservedConnections", 10)
	}
	return intSetting(t, vals, "externalDatabase", "maxConnections", 100) - intSetting(t, vals, "externalDatabase", "reservedConnections", 10)
}

// Every value set fits: production's autoscalers at their maxima, kind's single pods, the demo
// defaults and PgBouncer's, each with the rolling update's extra pod, within max_connections
// less the reserve; and PgBouncer's clients within its max_client_conn.
func TestConnectionBudgetFits(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs)
			c := connectionsOf(t, m)
			budget := budgetOf(t, vs, m)
			t.Logf("%d connections to PostgreSQL of a budget of %d (%s); %d to PgBouncer", c.toPostgres, budget, strings.Join(c.parts, ", "), c.toBouncer)
			if c.toPostgres > budget {
				t.Errorf("%d connections to PostgreSQL at the maxima, over the budget of %d: %s", c.toPostgres, budget, strings.Join(c.parts, ", "))
			}
			if c.toBouncer > 0 {
				ini := m.configMap(t, "prode-pgbouncer").Data["pgbouncer.ini"]
				if maxClients := iniInt(t, ini, "max_client_conn"); c.toBouncer > maxClients {
					t.Errorf("%d client connections to PgBouncer at the maxima, over its max_client_conn %d", c.toBouncer, maxClients)
				}
			}
		})
	}
}

// A release that could open more than the budget is refused, and the message gives each part,
// the total (the same the manifests would open) and the budget with where it comes from.
func TestConnectionBudgetRefusesAnOverflow(t *testing.T) {
	over := valueSet{"over budget", []string{"-f", "testdata/values-over-budget.yaml"}}
	pgb := valueSets[slices.IndexFunc(valueSets, func(vs valueSet) bool { return vs.name == "pgbouncer" })]
	prod := valueSets[slices.IndexFunc(valueSets, func(vs valueSet) bool { return vs.name == "production" })]
	cases := []struct {
		name    string
		vs      valueSet
		args    []string // what makes it overflow
		relax   []string // what makes the same pods render, to count them
		total   int      // what the message must say the release may open
		toCount func(connectionCount) int
		want    []string
	}{
		{"bundled PostgreSQL, 10 pods of everything", over, nil, []string{"--set", "postgresql.maxConnections=100000"}, 494,
			func(c connectionCount) int { return c.toPostgres },
			[]string{"PostgreSQL connections", "may open 494", "players 12 pods × 10 = 120", "fixtures 12 pods × 10 = 120",
				"predictions 12 pods × 10 = 120", "scoring 12 pods × (10 + 1 listener) = 132", "hook Jobs 1", "predictions-index CronJob 1",
				"over the budget of 90", "postgresql.maxConnections 100 less postgresql.reservedConnections 10",
				"turn on pgbouncer.enabled", "raise postgresql.maxConnections"}},
		{"production on a smaller managed tier", prod, []string{"--set", "externalDatabase.maxConnections=60"}, []string{"--set", "externalDatabase.maxConnections=100000"}, 90,
			func(c connectionCount) int { return c.toPostgres },
			[]string{"may open 90", "predictions 12 pods × 2 = 24", "scoring 8 pods × (3 + 1 listener) = 32",
				"over the budget of 50", "externalDatabase.maxConnections 60 less externalDatabase.reservedConnections 10",
				"externalDatabase.maxConnections with it"}},
		{"PgBouncer's values without PgBouncer", pgb, []string{"--set", "pgbouncer.enabled=false"}, []string{"--set", "postgresql.maxConnections=100000"}, 314,
			func(c connectionCount) int { return c.toPostgres },
			[]string{"may open 314", "predictions 12 pods × 10 = 120", "scoring 8 pods × (3 + 1 listener) = 32", "over the budget of 90"}},
		{"PgBouncer's pools too big", pgb, []string{"--set", "pgbouncer.poolSize=20"}, []string{"--set", "postgresql.maxConnections=100000"}, 274,
			func(c connectionCount) int { return c.toPostgres },
			[]string{"may open 274", "pgbouncer 4 pods × 3 roles × poolSize 20 = 240", "scoring 8 pods × (3 + 1 listener) = 32",
				"over the budget of 90", "lower pgbouncer.poolSize or replicaCount"}},
		{"more clients than PgBouncer takes", pgb, []string{"--set", "pgbouncer.maxClientConn=200"}, []string{"--set", "pgbouncer.maxClientConn=100000"}, 280,
			func(c connectionCount) int { return c.toBouncer },
			[]string{"PgBouncer clients", "may open 280 connections", "players 8 pods × 10 = 80", "fixtures 8 pods × 10 = 80",
				"predictions 12 pods × 10 = 120", "over pgbouncer.maxClientConn 200"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"template", "prode", chartDir}, c.vs.args...), c.args...)
			_, errOut, err := helm(t, args...)
			if err == nil {
				t.Fatalf("helm template %v rendered; want a refusal", args[3:])
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("the refusal does not say %q:\n%s", w, errOut)
				}
			}
			// The total in the message is what those manifests would open.
			m := render(t, c.vs, append(append([]string{}, c.args...), c.relax...)...)
			if got := c.toCount(connectionsOf(t, m)); got != c.total {
				t.Errorf("the manifests open %d, the message says %d", got, c.total)
			}
		})
	}
}

// PgBouncer on: its Deployment and Service, players, fixtures and predictions through it in pgx's
// exec mode with their own role and password, scoring, the hook Jobs and the predictions-index
// CronJob straight to PostgreSQL.
func TestPgBouncerRouting(t *testing.T) {
	pgb := valueSets[slices.IndexFunc(valueSets, func(vs valueSet) bool { return vs.name == "pgbouncer" })]
	external := valueSets[slices.IndexFunc(valueSets, func(vs valueSet) bool { return vs.name == "external" })]
	cases := []struct {
		name, database, passwords, tls string
		vs                             valueSet
		args                           []string
	}{
		{"bundled PostgreSQL", "prode = host=prode-postgresql port=5432 dbname=prode", "prode-postgresql", "disable", pgb, nil},
		{"external database", "prode = host=db.example.org port=5432 dbname=prode", "prode-pgbouncer-passwords", "require", external,
			[]string{"--set", "pgbouncer.enabled=true,pgbouncer.database.host=db.example.org,pgbouncer.existingSecret=prode-pgbouncer-passwords"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := render(t, c.vs, c.args...)
			w, ok := m.component(t, "pgbouncer")
			if !ok || w.kind != "Deployment" {
				t.Fatal("no pgbouncer Deployment")
			}
			ctr := w.spec.Containers[0]
			if !strings.Contains(ctr.Image, "/prode-pgbouncer:") || len(ctr.Ports) != 1 || ctr.Ports[0].ContainerPort != 6432 {
				t.Errorf("pgbouncer container: image %s, ports %+v; want prode-pgbouncer on 6432", ctr.Image, ctr.Ports)
			}
			if svc := m.servicePort(t, "prode-pgbouncer", "pgbouncer"); svc != 6432 {
				t.Errorf("Service prode-pgbouncer: port %d, want 6432", svc)
			}
			ini := m.configMap(t, "prode-pgbouncer").Data["pgbouncer.ini"]
			// query_wait_timeout below the services' 30 s write timeout: a request that waits for
			// a server connection (PostgreSQL down) gets its 503 instead of a cut connection.
			// server_login_retry short: writes resume within it once PostgreSQL is back.
			for key, want := range map[string]string{"pool_mode": "transaction", "auth_type": "scram-sha-256",
				"server_tls_sslmode": c.tls, "query_wait_timeout": "10", "server_login_retry": "2"} {
				if got := iniValue(ini, key); got != want {
					t.Errorf("pgbouncer.ini: %s = %q, want %q", key, got, want)
				}
			}
			if !strings.Contains(ini, "\n"+c.database+"\n") {
				t.Errorf("pgbouncer.ini: no database line %q:\n%s", c.database, ini)
			}
			roles, _ := m.containerEnv(t, ctr, "PGBOUNCER_ROLES")
			if roles != "prode_players prode_fixtures prode_predictions" {
				t.Errorf("PGBOUNCER_ROLES %q", roles)
			}

			for _, name := range goServices {
				svc, _ := m.component(t, name)
				sc := svc.spec.Containers[0]
				u := databaseURL(t, m, sc)
				if name == "scoring" {
					// Its pool and its outbox listener take the same DATABASE_URL: LISTEN needs a
					// session of its own, so it must name PostgreSQL itself.
					if u != nil && (u.Host != "prode-postgresql:5432" || u.Query().Has("default_query_exec_mode")) {
						t.Errorf("scoring: DATABASE_URL %s, want PostgreSQL itself", u.Redacted())
					}
					if u == nil {
						if e, _ := envValue(sc, "DATABASE_URL"); e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil || e.ValueFrom.SecretKeyRef.Key != "scoring-database-url" {
							t.Errorf("scoring: DATABASE_URL from %+v, want the database Secret's scoring-database-url", e.ValueFrom)
						}
					}
					if _, ok := envValue(sc, "PGPASSWORD"); ok {
						t.Error("scoring: PGPASSWORD set")
					}
					continue
				}
				if u == nil || u.Host != "prode-pgbouncer:6432" || u.User.Username() != "prode_"+name ||
					u.Query().Get("default_query_exec_mode") != "exec" || u.Path != "/prode" {
					t.Errorf("%s: DATABASE_URL %v, want prode_%s at prode-pgbouncer:6432/prode in exec mode", name, u, name)
				}
				if _, has := u.User.Password(); has {
					t.Errorf("%s: a password in DATABASE_URL; it belongs in PGPASSWORD", name)
				}
				// A replaced PgBouncer pod shuts down only after every client connection on it
				// has outlived its lifetime and been closed by its pool: a connection still on it
				// would fail mid-request (the cluster test saw 46 answers 503 without this).
				lifetime, err1 := time.ParseDuration(u.Query().Get("pool_max_conn_lifetime"))
				jitter, err2 := time.ParseDuration(u.Query().Get("pool_max_conn_lifetime_jitter"))
				if err1 != nil || err2 != nil || lifetime <= 0 {
					t.Errorf("%s: DATABASE_URL without pool_max_conn_lifetime and its jitter: %s", name, u.Redacted())
				} else if drain, idle := preStopSleep(ctr), lifetime+jitter+healthCheck; drain < idle+time.Second {
					// An idle connection past its lifetime is closed at the pool's next health check.
					t.Errorf("%s: connections to PgBouncer live up to %v, but a replaced PgBouncer pod shuts down after %v",
						name, idle, drain)
				}
				// A login to PgBouncer waits on CPU only, and happens mid-request every lifetime:
				// at the services' 2 s default, the cluster test saw SCRAM handshakes time out (503).
				if timeout, err := strconv.Atoi(u.Query().Get("connect_timeout")); err != nil || timeout < 10 {
					t.Errorf("%s: DATABASE_URL's connect_timeout %q, want at least 10 s to log in to PgBouncer",
						name, u.Query().Get("connect_timeout"))
				}
				pw, ok := envValue(sc, "PGPASSWORD")
				if !ok || pw.ValueFrom == nil || pw.ValueFrom.SecretKeyRef == nil ||
					pw.ValueFrom.SecretKeyRef.Name != c.passwords || pw.ValueFrom.SecretKeyRef.Key != name+"-password" {
					t.Errorf("%s: PGPASSWORD %+v, want %s's key %s-password", name, pw, c.passwords, name)
				}
				// PgBouncer checks the same password.
				pp, ok := envValue(ctr, "PGBOUNCER_PASSWORD_prode_"+name)
				if !ok || pp.ValueFrom == nil || pp.ValueFrom.SecretKeyRef == nil ||
					pp.ValueFrom.SecretKeyRef.Name != c.passwords || pp.ValueFrom.SecretKeyRef.Key != name+"-password" {
					t.Errorf("pgbouncer: PGBOUNCER_PASSWORD_prode_%s %+v, want %s's key %s-password", name, pp, c.passwords, name)
				}
			}
			// The hook Jobs and the CronJob connect directly: migrate holds a session-level
			// advisory lock, and a post-install hook may run before PgBouncer is ready.
			for _, w := range m.workloads(t) {
				if w.kind != "Job" && w.kind != "CronJob" {
					continue
				}
				for _, jc := range w.spec.Containers {
					if u := databaseURL(t, m, jc); u != nil && u.Host != "prode-postgresql:5432" {
						t.Errorf("%s: DATABASE_URL %s, want PostgreSQL itself", w, u.Redacted())
					}
				}
			}
		})
	}
}

// PgBouncer with an external database needs to know where it is and the roles' passwords.
func TestPgBouncerNeedsTheExternalDatabase(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"pgbouncer.enabled=true,pgbouncer.existingSecret=s", "pgbouncer.database.host"},
		{"pgbouncer.enabled=true,pgbouncer.database.host=db.example.org", "players-password, fixtures-password, predictions-password"},
	} {
		_, errOut, err := helm(t, "template", "prode", chartDir, "-f", "testdata/values-external.yaml", "--set", c.set)
		if err == nil || !strings.Contains(errOut, c.want) {
			t.Errorf("--set %s: err %v, stderr %q; want a refusal mentioning %q", c.set, err, errOut, c.want)
		}
	}
}

// preStopSleep is how long a container's preStop hook sleeps (0 without one).
// healthCheck is how often a service's pool closes its idle connections past their lifetime
// (platform/postgres: HealthCheckPeriod).
const healthCheck = 5 * time.Second

func preStopSleep(c corev1.Container) time.Duration {
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Sleep == nil {
		return 0
	}
	return time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
}
