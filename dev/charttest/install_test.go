package charttest

// Acceptance 2, on the real kube-apiserver that dev/test-chart.sh starts: every value set
// installs into a namespace that enforces and warns Pod Security "restricted" with zero
// warnings; `helm upgrade` creates the migrations hook Job before any Deployment changes; and
// `helm test`'s Pod is admitted.
//
// The API server has no kubelet and no controllers, so no pod ever runs, and Helm waits for
// hook Jobs (and the test Pod) to finish. The test plays those controllers: it marks each hook
// Job complete (and the test Pod succeeded) through the status subresource, the way the Job
// controller and the kubelet would. Between a hook Job appearing and its completion, Helm is
// blocked in the hook, which is exactly when the test checks what exists and what changed.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

type cluster struct {
	cs  *kubernetes.Clientset
	dyn *dynamic.DynamicClient
}

var (
	clusterOnce sync.Once
	theCluster  *cluster
	clusterErr  error
)

// apiServer connects to the throwaway API server and installs, once, the Prometheus Operator's
// CRDs (the production values enable a ServiceMonitor and a PrometheusRule) and the Gateway
// API's HTTPRoute CRD (gateway.enabled renders an HTTPRoute).
func apiServer(t *testing.T) *cluster {
	t.Helper()
	kubeconfig := mustEnv(t, "KUBECONFIG")
	crds := mustEnv(t, "OPERATOR_CRDS")
	gatewayCRDs := mustEnv(t, "GATEWAY_CRDS")
	clusterOnce.Do(func() {
		cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
		if err != nil {
			clusterErr = err
			return
		}
		c := &cluster{}
		if c.cs, err = kubernetes.NewForConfig(cfg); err != nil {
			clusterErr = err
			return
		}
		if c.dyn, err = dynamic.NewForConfig(cfg); err != nil {
			clusterErr = err
			return
		}
		for _, kind := range []string{"servicemonitors", "prometheusrules"} {
			if err := c.applyCRD(filepath.Join(crds, "monitoring.coreos.com_"+kind+".yaml")); err != nil {
				clusterErr = fmt.Errorf("CRD %s: %w", kind, err)
				return
			}
		}
		if err := c.applyCRD(filepath.Join(gatewayCRDs, "gateway.networking.k8s.io_httproutes.yaml")); err != nil {
			clusterErr = fmt.Errorf("CRD httproutes: %w", err)
			return
		}
		theCluster = c
	})
	if clusterErr != nil {
		t.Fatal(clusterErr)
	}
	return theCluster
}

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

func (c *cluster) applyCRD(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	objs, err := decodeYAML(string(data))
	if err != nil || len(objs) != 1 {
		return fmt.Errorf("%s: %d objects, %v", file, len(objs), err)
	}
	ctx := context.Background()
	if _, err := c.dyn.Resource(crdResource).Create(ctx, objs[0], metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	// Established: its API is served (by the API server itself, no controller needed).
	return poll(30*time.Second, func() (bool, error) {
		crd, err := c.dyn.Resource(crdResource).Get(ctx, objs[0].GetName(), metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
		for _, cond := range conds {
			m, _ := cond.(map[string]any)
			if m["type"] == "Established" && m["status"] == "True" {
				return true, nil
			}
		}
		return false, nil
	})
}

func poll(timeout time.Duration, done func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := done()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %v", timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// restrictedNamespace creates a namespace that enforces, warns and audits Pod Security
// "restricted" at the latest version, with the default ServiceAccount a controller manager
// would create (Pods, like the helm test Pod, are refused without one).
func (c *cluster) restrictedNamespace(t *testing.T, name string) {
	t.Helper()
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
		"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "latest",
		"pod-security.kubernetes.io/warn": "restricted", "pod-security.kubernetes.io/warn-version": "latest",
		"pod-security.kubernetes.io/audit": "restricted", "pod-security.kubernetes.io/audit-version": "latest",
	}}}
	if _, err := c.cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}
	if _, err := c.cs.CoreV1().ServiceAccounts(name).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// secret creates a Secret the values refer to as an existing one.
func (c *cluster) secret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name}, StringData: data}
	if _, err := c.cs.CoreV1().Secrets(ns).Create(context.Background(), s, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// fakeControllers completes hook Jobs and succeeds test Pods in a namespace. onJob is called
// for each new Job before it is completed, while Helm waits on it.
type fakeControllers struct {
	c     *cluster
	ns    string
	onJob func(job *batchv1.Job)
	seen  map[string]bool
	stop  chan struct{}
	done  chan struct{}
	mu    sync.Mutex
	order []string // the Jobs completed, in order
}

func (c *cluster) startFakeControllers(t *testing.T, ns string, onJob func(*batchv1.Job)) *fakeControllers {
	f := &fakeControllers{c: c, ns: ns, onJob: onJob, seen: map[string]bool{}, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(f.done)
		for {
			select {
			case <-f.stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if err := f.step(); err != nil {
				t.Errorf("fake controllers in %s: %v", ns, err)
				return
			}
		}
	}()
	return f
}

func (f *fakeControllers) halt() { close(f.stop); <-f.done }

func (f *fakeControllers) completed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.order...)
}

func (f *fakeControllers) step() error {
	ctx := context.Background()
	jobs, err := f.c.cs.BatchV1().Jobs(f.ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range jobs.Items {
		job := &jobs.Items[i]
		if f.seen[string(job.UID)] {
			continue
		}
		f.seen[string(job.UID)] = true
		if f.onJob != nil {
			f.onJob(job)
		}
		// What the Job controller writes when the one pod of a Job has succeeded.
		now := metav1.Now()
		job.Status.StartTime = &now
		job.Status.CompletionTime = &now
		job.Status.Succeeded = 1
		job.Status.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, Reason: "CompletionsReached", LastProbeTime: now, LastTransitionTime: now},
			{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, Reason: "CompletionsReached", LastProbeTime: now, LastTransitionTime: now},
		}
		if _, err := f.c.cs.BatchV1().Jobs(f.ns).UpdateStatus(ctx, job, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("completing Job %s: %w", job.Name, err)
		}
		f.mu.Lock()
		f.order = append(f.order, job.Name)
		f.mu.Unlock()
	}
	pods, err := f.c.cs.CoreV1().Pods(f.ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		if pod.Annotations["helm.sh/hook"] != "test" || pod.Status.Phase == corev1.PodSucceeded {
			continue
		}
		// What the kubelet reports once the test's container exited 0.
		pod.Status.Phase = corev1.PodSucceeded
		if _, err := f.c.cs.CoreV1().Pods(f.ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("succeeding Pod %s: %w", pod.Name, err)
		}
	}
	return nil
}

// helmClean runs helm and fails the test on an error or on anything written to stderr: that
// is where helm and the Kubernetes client print warnings (Pod Security, deprecations, ...).
func helmClean(t *testing.T, args ...string) string {
	t.Helper()
	start := time.Now()
	out, errOut, err := helm(t, args...)
	if err != nil {
		t.Fatalf("helm %s: %v\nstdout:\n%s\nstderr:\n%s", args[0], err, out, errOut)
	}
	if rest := withoutWatchNoise(errOut); rest != "" {
		t.Errorf("helm %s wrote to stderr (warnings are not allowed):\n%s", args[0], rest)
	}
	if strings.Contains(strings.ToLower(errOut+out), "would violate podsecurity") {
		t.Errorf("helm %s: Pod Security warning:\n%s%s", args[0], out, errOut)
	}
	t.Logf("helm %s: %v", args[0], time.Since(start).Round(100*time.Millisecond))
	return out
}

// withoutWatchNoise drops the one kind of stderr line that is not about the chart: client-go's
// reflector noting that helm cancelled its own watch of a hook Job or test Pod once it was done.
// It appears at random, depending on where the cancellation finds the watch: during a read
// ("watch ended with error ... context canceled", info level) or while the watch request is
// being opened again ("Failed to watch ... context canceled", error level). Everything else
// stays, the API server's warnings (client-go's warnings.go "Warning: ...") first of all.
func withoutWatchNoise(stderr string) string {
	var kept []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.TrimSpace(line) == "" || watchNoise.MatchString(line) {
			continue
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}

var watchNoise = regexp.MustCompile(`^[IE]\d{4} [0-9:.]+\s+\d+ reflector\.go:\d+\] "(Warning: watch ended with error|Failed to watch)" .*context canceled`)

type deploymentState struct {
	generation      int64
	resourceVersion string
	image           string
}

func (c *cluster) deploymentStates(t *testing.T, ns string) map[string]deploymentState {
	t.Helper()
	list, err := c.cs.AppsV1().Deployments(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]deploymentState{}
	for _, d := range list.Items {
		states[d.Name] = deploymentState{d.Generation, d.ResourceVersion, d.Spec.Template.Spec.Containers[0].Image}
	}
	return states
}

// secretData: the data of those of the named Secrets that exist, by "secret/key".
func (c *cluster) secretData(t *testing.T, ns string, names ...string) map[string]string {
	t.Helper()
	data := map[string]string{}
	for _, name := range names {
		s, err := c.cs.CoreV1().Secrets(ns).Get(context.Background(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		for k, v := range s.Data {
			data[name+"/"+k] = string(v)
		}
	}
	return data
}

// rv: resourceVersions are etcd revisions; this API server's are plain increasing integers.
func rv(t *testing.T, s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q: %v", s, err)
	}
	return n
}

func TestInstallUpgradeOnAPIServer(t *testing.T) {
	c := apiServer(t)
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			t.Parallel()
			ns := "prode-" + vs.name
			c.restrictedNamespace(t, ns)
			if vs.name == "production" {
				c.productionSecrets(t, ns)
			}
			rendered := render(t, vs)
			external := !rendered.has("StatefulSet")
			_, bundledRedis := rendered.component(t, "redis")
			chartArgs := append([]string{chartDir, "--namespace", ns, "--timeout", "2m"}, vs.args...)

			// Install. The migrations Job must find: with an external database, no Deployment
			// yet (pre-install) and its Secret already there; with the bundled one, the database.
			var installChecks []string
			ctrl := c.startFakeControllers(t, ns, func(job *batchv1.Job) {
				if job.Labels["app.kubernetes.io/component"] != "migrations" {
					return
				}
				deps := c.deploymentStates(t, ns)
				_, err := c.cs.AppsV1().StatefulSets(ns).Get(context.Background(), "prode-postgresql", metav1.GetOptions{})
				switch {
				case external && len(deps) != 0:
					t.Errorf("install: the migrations Job was created after %d Deployments; want pre-install", len(deps))
				case !external && err != nil:
					t.Errorf("install: the migrations Job was created before the bundled PostgreSQL: %v", err)
				}
				installChecks = append(installChecks, fmt.Sprintf("%d Deployments exist", len(deps)))
				sec, err := c.cs.CoreV1().Secrets(ns).Get(context.Background(), "prode-migrations", metav1.GetOptions{})
				switch {
				case err == nil && sec.Annotations["helm.sh/hook"] != "":
					if rv(t, sec.ResourceVersion) >= rv(t, job.ResourceVersion) {
						t.Error("install: the migrations hook Secret was created after its Job")
					}
					installChecks = append(installChecks, fmt.Sprintf("its hook Secret exists (rv %s < Job rv %s)", sec.ResourceVersion, job.ResourceVersion))
				case vs.name == "external":
					t.Errorf("install: the migrations hook Secret is missing when its Job starts: %v", err)
				}
			})
			out := helmClean(t, append([]string{"install", "prode"}, chartArgs...)...)
			ctrl.halt()
			// NOTES.txt: where the game is, and a warning when sign-in is the dev one.
			_, notes, found := strings.Cut(out, "NOTES:")
			t.Logf("install: NOTES:%s", notes)
			wantNotes := map[string]string{"default": "WARNING: dev sign-in is on", "kind": "Open http://localhost/",
				"production": "Open https://prode.example.org/", "external": "Open http://prode.example.org/",
				"pgbouncer": "through PgBouncer for players, fixtures and predictions"}
			if !found || !strings.Contains(notes, wantNotes[vs.name]) {
				t.Errorf("install: NOTES without %q:\n%s", wantNotes[vs.name], out)
			}
			t.Logf("install: hook Jobs completed in order %v; when the migrations Job appeared: %s", ctrl.completed(), strings.Join(installChecks, ", "))
			if got := ctrl.completed(); len(got) == 0 || got[0] != "prode-migrations" {
				t.Errorf("install: hook Jobs %v, want prode-migrations first", got)
			}
			before := c.deploymentStates(t, ns)
			if len(before) < 5 {
				t.Fatalf("install: %d Deployments", len(before))
			}
			if _, err := c.cs.BatchV1().Jobs(ns).Get(context.Background(), "prode-migrations", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("install: the succeeded migrations Job was not deleted (hook-succeeded): %v", err)
			}
			// The migrating role's credentials do not outlive the Job (unless they are the
			// operator's own existing Secret).
			if sec, err := c.cs.CoreV1().Secrets(ns).Get(context.Background(), "prode-migrations", metav1.GetOptions{}); err == nil && sec.Annotations["helm.sh/hook"] != "" {
				t.Error("install: the migrations hook Secret was not deleted after the Job succeeded")
			}

			// Generated secrets (the session key, the bundled database's and Redis's passwords) must
			// survive upgrades: PostgreSQL keeps the passwords it was initialised with, and a new
			// Redis password would restart Redis and every pod that reads it.
			generatedSecrets := []string{"prode-session", "prode-postgresql", "prode-redis-password"}
			generated := c.secretData(t, ns, generatedSecrets...)
			want := 6
			if bundledRedis {
				want++
			}
			if !external && len(generated) != want {
				t.Errorf("generated Secrets: %d keys, want %d (session key, superuser and 4 role passwords, Redis's password when bundled)", len(generated), want)
			}

			// Upgrade to a new image tag: every Deployment changes, after the migrations.
			var jobRV int64
			ctrl = c.startFakeControllers(t, ns, func(job *batchv1.Job) {
				if job.Labels["app.kubernetes.io/component"] != "migrations" {
					return
				}
				jobRV = rv(t, job.ResourceVersion)
				// Helm is blocked on this Job now; give it time to (wrongly) move on.
				for i := 0; i < 2; i++ {
					if now := c.deploymentStates(t, ns); !equalStates(now, before) {
						t.Errorf("upgrade: Deployments changed before the migrations Job completed:\n before %v\n now    %v", before, now)
					}
					time.Sleep(time.Second)
				}
			})
			helmClean(t, append([]string{"upgrade", "prode"}, append(chartArgs, "--set", "image.tag=9.9.9")...)...)
			ctrl.halt()
			if jobRV == 0 {
				t.Fatal("upgrade: no migrations Job was created")
			}
			if now := c.secretData(t, ns, generatedSecrets...); !reflect.DeepEqual(now, generated) {
				t.Errorf("upgrade: generated Secrets changed: %d keys before, %d after", len(generated), len(now))
			}
			after := c.deploymentStates(t, ns)
			t.Logf("upgrade: migrations Job created at rv %d while %d Deployments kept their rv; after it completed they changed: %s",
				jobRV, len(before), describeChanges(before, after))
			for name, b := range before {
				a := after[name]
				if name == "prode-redis" {
					continue // the bundled Redis does not use the Prode image tag
				}
				if a.generation <= b.generation || !strings.HasSuffix(a.image, ":9.9.9") {
					t.Errorf("upgrade: Deployment %s did not change: %+v -> %+v", name, b, a)
				}
				if rv(t, a.resourceVersion) <= jobRV {
					t.Errorf("upgrade: Deployment %s changed (rv %s) before the migrations Job was created (rv %d)", name, a.resourceVersion, jobRV)
				}
			}

			// helm test: its Pod is admitted under "restricted" (enforced: a Pod, not a template).
			ctrl = c.startFakeControllers(t, ns, nil)
			out = helmClean(t, "test", "prode", "--namespace", ns, "--timeout", "1m")
			ctrl.halt()
			if !strings.Contains(out, "Phase:          Succeeded") {
				t.Errorf("helm test:\n%s", out)
			}
		})
	}
}

func describeChanges(before, after map[string]deploymentState) string {
	var parts []string
	for name, b := range before {
		parts = append(parts, fmt.Sprintf("%s rv %s->%s", strings.TrimPrefix(name, "prode-"), b.resourceVersion, after[name].resourceVersion))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

func equalStates(a, b map[string]deploymentState) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// The Secrets values-production.yaml names as existing ones (admission does not need them; a
// real install does, and this keeps the example honest).
func (c *cluster) productionSecrets(t *testing.T, ns string) {
	url := func(role string) string {
		return "postgres://" + role + ":pw@db.example.org:5432/prode?sslmode=require"
	}
	c.secret(t, ns, "prode-session", map[string]string{"session-key": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="})
	c.secret(t, ns, "prode-google", map[string]string{"client-id": "id.apps.googleusercontent.com", "client-secret": "s"})
	c.secret(t, ns, "prode-database", map[string]string{
		"players-database-url": url("prode_players"), "fixtures-database-url": url("prode_fixtures"),
		"predictions-database-url": url("prode_predictions"), "scoring-database-url": url("prode_scoring"),
	})
	c.secret(t, ns, "prode-migrations", map[string]string{"DATABASE_URL": url("prode_admin"), "ROLE_PASSWORD_PLAYERS": "pw"})
	c.secret(t, ns, "prode-redis", map[string]string{"redis-url": "rediss://redis.example.org:6380/0"})
}

// The zero-warnings check means something only if a non-compliant chart does warn: a
// Deployment without any security context, installed the same way, must.
func TestRestrictedNamespaceWarns(t *testing.T) {
	c := apiServer(t)
	c.restrictedNamespace(t, "prode-negative")
	chart := t.TempDir()
	files := map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: insecure\nversion: 0.1.0\n",
		"templates/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: insecure}
spec:
  selector: {matchLabels: {app: insecure}}
  template:
    metadata: {labels: {app: insecure}}
    spec:
      containers: [{name: app, image: example.org/app:1}]
`,
	}
	for name, content := range files {
		path := filepath.Join(chart, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, errOut, err := helm(t, "install", "insecure", chart, "--namespace", "prode-negative")
	if err != nil {
		t.Fatalf("helm install: %v\n%s", err, errOut)
	}
	// client-go logs the API server's warning header through klog, quotes escaped.
	if !strings.Contains(errOut, "would violate PodSecurity") || !strings.Contains(errOut, "restricted:latest") {
		t.Errorf("no Pod Security warning on helm's stderr for a non-compliant Deployment:\n%s", errOut)
	}
}

func TestWatchNoiseFilter(t *testing.T) {
	noise := `I1122 07:15:34.128299     987 reflector.go:664] "Warning: watch ended with error" reflector="pkg/mod/k8s.io/client-go@v0.37.0/tools/cache/reflector.go:343" type="*unstructured.Unstructured" err="an error on the server (\"unable to decode an event from the watch stream: context canceled\") has prevented the request from succeeding"`
	psa := `I1122 07:11:38.511057   26702 warnings.go:107] "Warning: would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false"`
	if got := withoutWatchNoise(noise + "\n"); got != "" {
		t.Errorf("the watch-cancelled line was kept: %q", got)
	}
	reopening := `E1201 09:04:13.332805   19994 reflector.go:227] "Failed to watch" err="Get \"https://127.0.0.1:31942/api/v1/namespaces/prode-production/pods?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dprode-test&resourceVersion=657&timeoutSeconds=516&watch=true\": context canceled" logger="UnhandledError" reflector="pkg/mod/k8s.io/client-go@v0.37.0/tools/cache/reflector.go:343" type="*unstructured.Unstructured"`
	if got := withoutWatchNoise(reopening + "\n"); got != "" {
		t.Errorf("the watch cancelled while being opened was kept: %q", got)
	}
	refused := `E1201 09:04:13.332805   19994 reflector.go:227] "Failed to watch" err="pods is forbidden: User \"x\" cannot watch resource \"pods\""`
	if got := withoutWatchNoise(refused + "\n"); got != refused {
		t.Errorf("a watch refused by the API server was dropped: %q", got)
	}
	if got := withoutWatchNoise(noise + "\n" + psa + "\n"); got != psa {
		t.Errorf("a Pod Security warning was dropped: %q", got)
	}
	if got := withoutWatchNoise("WARNING: Kubernetes configuration file is group-readable.\n"); got == "" {
		t.Error("helm's own warning was dropped")
	}
}
