// Package charttest checks the Helm chart in charts/prode: offline (helm lint, the rendered
// manifests, the routes, skaffold.yaml) and on a real kube-apiserver (install, upgrade, test).
// dev/test-chart.sh provides the tools and the API server through the environment:
//
//	REPO_ROOT      the repository
//	HELM           the helm binary
//	KUBECONFIG     the throwaway API server (install_test.go)
//	OPERATOR_CRDS  the Prometheus Operator's CRD folder (install_test.go)
//	GATEWAY_CRDS   the Gateway API's standard-channel CRD folder (install_test.go)
//	SKAFFOLD       a skaffold binary (optional: skaffold render is skipped without it)
package charttest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

var (
	repoRoot = absRoot()
	chartDir = filepath.Join(repoRoot, "charts", "prode")
)

// absRoot: REPO_ROOT, else two folders up (go test runs in dev/charttest), as an absolute path.
func absRoot() string {
	root := os.Getenv("REPO_ROOT")
	if root == "" {
		root = "../.."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		panic(err)
	}
	return abs
}

// valueSet is one way of installing the chart.
type valueSet struct {
	name string
	args []string // helm flags
}

// The values files the issue names, plus external databases given as values (the only setup
// that renders the migrations hook Secret), and PgBouncer in front of the bundled PostgreSQL.
var valueSets = []valueSet{
	{"default", nil},
	{"production", []string{"-f", filepath.Join(chartDir, "values-production.yaml")}},
	{"kind", []string{"-f", filepath.Join(chartDir, "values-kind.yaml")}},
	{"external", []string{"-f", "testdata/values-external.yaml"}},
	{"pgbouncer", []string{"-f", "testdata/values-pgbouncer.yaml"}},
}

// helm runs the helm binary and returns its stdout and stderr.
func helm(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	bin := os.Getenv("HELM")
	if bin == "" {
		t.Fatal("HELM is not set: run the chart tests with dev/test-chart.sh")
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// manifests is a rendered release.
type manifests struct {
	objs []*unstructured.Unstructured
}

// render runs helm template (release "prode", namespace "prode") with the value set's flags.
func render(t *testing.T, vs valueSet, extra ...string) *manifests {
	t.Helper()
	args := append([]string{"template", "prode", chartDir, "--namespace", "prode"}, vs.args...)
	out, errOut, err := helm(t, append(args, extra...)...)
	if err != nil {
		t.Fatalf("helm template (%s): %v\n%s", vs.name, err, errOut)
	}
	objs, err := decodeYAML(out)
	if err != nil {
		t.Fatalf("rendered manifests (%s): %v", vs.name, err)
	}
	return &manifests{objs: objs}
}

func decodeYAML(s string) ([]*unstructured.Unstructured, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(s), 4096)
	var objs []*unstructured.Unstructured
	for {
		var m map[string]any
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return objs, nil
		} else if err != nil {
			return nil, err
		}
		if len(m) > 0 {
			objs = append(objs, &unstructured.Unstructured{Object: m})
		}
	}
}

// typed converts every object of kind into T, failing on fields T does not have (a typo in a
// template would otherwise only show up on a cluster).
func typed[T any](t *testing.T, m *manifests, kind string) []T {
	t.Helper()
	var out []T
	for _, o := range m.objs {
		if o.GetKind() != kind {
			continue
		}
		var v T
		if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(o.Object, &v, true); err != nil {
			t.Fatalf("%s %s: %v", kind, o.GetName(), err)
		}
		out = append(out, v)
	}
	return out
}

func (m *manifests) deployments(t *testing.T) []appsv1.Deployment {
	return typed[appsv1.Deployment](t, m, "Deployment")
}
func (m *manifests) statefulSets(t *testing.T) []appsv1.StatefulSet {
	return typed[appsv1.StatefulSet](t, m, "StatefulSet")
}
func (m *manifests) jobs(t *testing.T) []batchv1.Job { return typed[batchv1.Job](t, m, "Job") }
func (m *manifests) cronJobs(t *testing.T) []batchv1.CronJob {
	return typed[batchv1.CronJob](t, m, "CronJob")
}
func (m *manifests) pods(t *testing.T) []corev1.Pod { return typed[corev1.Pod](t, m, "Pod") }
func (m *manifests) pdbs(t *testing.T) []policyv1.PodDisruptionBudget {
	return typed[policyv1.PodDisruptionBudget](t, m, "PodDisruptionBudget")
}
func (m *manifests) hpas(t *testing.T) []autoscalingv2.HorizontalPodAutoscaler {
	return typed[autoscalingv2.HorizontalPodAutoscaler](t, m, "HorizontalPodAutoscaler")
}
func (m *manifests) networkPolicies(t *testing.T) []networkingv1.NetworkPolicy {
	return typed[networkingv1.NetworkPolicy](t, m, "NetworkPolicy")
}
func (m *manifests) ingresses(t *testing.T) []networkingv1.Ingress {
	return typed[networkingv1.Ingress](t, m, "Ingress")
}
func (m *manifests) secrets(t *testing.T) []corev1.Secret {
	return typed[corev1.Secret](t, m, "Secret")
}
func (m *manifests) configMap(t *testing.T, name string) corev1.ConfigMap {
	for _, c := range typed[corev1.ConfigMap](t, m, "ConfigMap") {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no ConfigMap %s", name)
	return corev1.ConfigMap{}
}

// workload is any pod template of the release, with where it comes from.
type workload struct {
	kind, name  string
	labels      map[string]string
	annotations map[string]string // of the object itself (Helm hooks)
	spec        corev1.PodSpec
}

func (w workload) String() string { return w.kind + "/" + w.name }

func (m *manifests) workloads(t *testing.T) []workload {
	var ws []workload
	for _, d := range m.deployments(t) {
		ws = append(ws, workload{"Deployment", d.Name, d.Spec.Template.Labels, d.Annotations, d.Spec.Template.Spec})
	}
	for _, s := range m.statefulSets(t) {
		ws = append(ws, workload{"StatefulSet", s.Name, s.Spec.Template.Labels, s.Annotations, s.Spec.Template.Spec})
	}
	for _, j := range m.jobs(t) {
		ws = append(ws, workload{"Job", j.Name, j.Spec.Template.Labels, j.Annotations, j.Spec.Template.Spec})
	}
	for _, c := range m.cronJobs(t) {
		tmpl := c.Spec.JobTemplate.Spec.Template
		ws = append(ws, workload{"CronJob", c.Name, tmpl.Labels, c.Annotations, tmpl.Spec})
	}
	for _, p := range m.pods(t) {
		ws = append(ws, workload{"Pod", p.Name, p.Labels, p.Annotations, p.Spec})
	}
	return ws
}

// component finds the workload of an app.kubernetes.io/component.
func (m *manifests) component(t *testing.T, name string) (workload, bool) {
	for _, w := range m.workloads(t) {
		if w.labels["app.kubernetes.io/component"] == name {
			return w, true
		}
	}
	return workload{}, false
}

func (m *manifests) has(kind string) bool {
	for _, o := range m.objs {
		if o.GetKind() == kind {
			return true
		}
	}
	return false
}

var goServices = []string{"players", "fixtures", "predictions", "scoring"}

// eachGoContainer renders the chart with every value set (a subtest each) and calls check with
// each Go service's container.
func eachGoContainer(t *testing.T, check func(t *testing.T, name string, c corev1.Container)) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs)
			for _, name := range goServices {
				w, ok := m.component(t, name)
				if !ok {
					t.Fatalf("no %s workload", name)
				}
				check(t, name, w.spec.Containers[0])
			}
		})
	}
}

func mustEnv(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set: run the chart tests with dev/test-chart.sh", name)
	}
	return v
}

func envValue(c corev1.Container, name string) (corev1.EnvVar, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e, true
		}
	}
	return corev1.EnvVar{}, false
}

// containerEnv is the value a container sees for name: its env (which wins, as in Kubernetes),
// else a ConfigMap of the release that its envFrom names.
func (m *manifests) containerEnv(t *testing.T, c corev1.Container, name string) (string, bool) {
	t.Helper()
	if e, ok := envValue(c, name); ok {
		return e.Value, e.ValueFrom == nil
	}
	for _, from := range c.EnvFrom {
		// The variables are the ConfigMap's keys with the prefix in front.
		if from.ConfigMapRef == nil || !strings.HasPrefix(name, from.Prefix) {
			continue
		}
		if v, ok := m.configMap(t, from.ConfigMapRef.Name).Data[strings.TrimPrefix(name, from.Prefix)]; ok {
			return v, true
		}
	}
	return "", false
}
