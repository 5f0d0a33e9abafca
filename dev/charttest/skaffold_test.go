package charttest

// Acceptance 6: skaffold.yaml builds what the chart deploys. No Docker here, so images are
// never built: every artifact's context and Dockerfile must exist, what each Dockerfile copies
// must be in its context and not excluded by .dockerignore, every image the chart runs must be
// an artifact handed to the chart, and the kind pieces must fit together. With a skaffold
// binary (SKAFFOLD), `skaffold render --offline` must also accept the file.

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

type skaffoldConfig struct {
	APIVersion string `json:"apiVersion"`
	Build      struct {
		Artifacts []struct {
			Image   string `json:"image"`
			Context string `json:"context"`
			Docker  *struct {
				Dockerfile string            `json:"dockerfile"`
				BuildArgs  map[string]string `json:"buildArgs"`
			} `json:"docker"`
		} `json:"artifacts"`
	} `json:"build"`
	Deploy struct {
		Helm struct {
			Releases []struct {
				Name              string            `json:"name"`
				ChartPath         string            `json:"chartPath"`
				Namespace         string            `json:"namespace"`
				SetValues         map[string]string `json:"setValues"`
				SetValueTemplates map[string]string `json:"setValueTemplates"`
			} `json:"releases"`
		} `json:"helm"`
	} `json:"deploy"`
	PortForward []struct {
		ResourceType string `json:"resourceType"`
		ResourceName string `json:"resourceName"`
		Namespace    string `json:"namespace"`
		Port         int32  `json:"port"`
	} `json:"portForward"`
	Profiles []struct {
		Name       string `json:"name"`
		Activation []struct {
			KubeContext string `json:"kubeContext"`
		} `json:"activation"`
		Patches []struct {
			Op    string `json:"op"`
			Path  string `json:"path"`
			Value any    `json:"value"`
		} `json:"patches"`
	} `json:"profiles"`
}

func readSkaffold(t *testing.T) skaffoldConfig {
	data, err := os.ReadFile(filepath.Join(repoRoot, "skaffold.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg skaffoldConfig
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Build.Artifacts) == 0 || len(cfg.Deploy.Helm.Releases) != 1 {
		t.Fatalf("skaffold.yaml: %d artifacts, %d Helm releases", len(cfg.Build.Artifacts), len(cfg.Deploy.Helm.Releases))
	}
	return cfg
}

var (
	copyLine = regexp.MustCompile(`(?i)^\s*(COPY|ADD)\s+(.*)$`)
	argLine  = regexp.MustCompile(`(?i)^\s*ARG\s+([A-Za-z_][A-Za-z0-9_]*)(?:=(\S*))?\s*$`)
)

// dockerCopies: the context paths a Dockerfile's COPY/ADD lines read (not those --from a stage),
// with the build arguments expanded (${MODULE}: the artifact's buildArgs, else the ARG's
// default, which may name an earlier argument, as MODULE=services/${SERVICE} does).
func dockerCopies(t *testing.T, dockerfile string, buildArgs map[string]string) []string {
	f, err := os.Open(dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	args := map[string]string{}
	expand := func(s string) string { return os.Expand(s, func(name string) string { return args[name] }) }
	var srcs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := argLine.FindStringSubmatch(sc.Text()); m != nil {
			if v, given := buildArgs[m[1]]; given {
				args[m[1]] = v
			} else if _, declared := args[m[1]]; !declared || m[2] != "" {
				args[m[1]] = expand(m[2])
			}
			continue
		}
		m := copyLine.FindStringSubmatch(expand(sc.Text()))
		if m == nil {
			continue
		}
		fields := strings.Fields(m[2])
		if slices.ContainsFunc(fields, func(s string) bool { return strings.HasPrefix(s, "--from") }) {
			continue
		}
		var args []string
		for _, a := range fields {
			if !strings.HasPrefix(a, "--") {
				args = append(args, a)
			}
		}
		srcs = append(srcs, args[:len(args)-1]...)
	}
	return srcs
}

// ignored: does a .dockerignore pattern exclude path (or a folder above it)? Handles the
// forms .dockerignore uses: plain paths, globs, **/ prefixes and ! exceptions.
func ignored(patterns []string, path string) bool {
	path = filepath.Clean(path)
	out := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		match := false
		for dir := path; dir != "." && dir != "/"; dir = filepath.Dir(dir) {
			if ok, _ := filepath.Match(p, dir); ok {
				match = true
			}
			if rest, found := strings.CutPrefix(p, "**/"); found {
				if ok, _ := filepath.Match(rest, filepath.Base(dir)); ok {
					match = true
				}
			}
		}
		if match {
			out = !neg
		}
	}
	return out
}

func dockerignore(t *testing.T, context string) []string {
	data, err := os.ReadFile(filepath.Join(context, ".dockerignore"))
	if err != nil {
		return nil
	}
	var pats []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			pats = append(pats, line)
		}
	}
	return pats
}

func TestSkaffoldArtifacts(t *testing.T) {
	cfg := readSkaffold(t)
	release := cfg.Deploy.Helm.Releases[0]
	if _, err := os.Stat(filepath.Join(repoRoot, release.ChartPath, "Chart.yaml")); err != nil {
		t.Errorf("chartPath %s: %v", release.ChartPath, err)
	}
	if v, ok := release.SetValues["image.registry"]; !ok || v != "" {
		t.Errorf("setValues image.registry = %q, want \"\" (skaffold gives full image names)", v)
	}

	handed := map[string]bool{} // images skaffold hands to the chart
	for _, a := range cfg.Build.Artifacts {
		t.Run(a.Image, func(t *testing.T) {
			ctx := filepath.Join(repoRoot, a.Context)
			if st, err := os.Stat(ctx); err != nil || !st.IsDir() {
				t.Fatalf("context %q: %v", a.Context, err)
			}
			if a.Docker == nil {
				t.Fatal("not a docker artifact")
			}
			dockerfile := filepath.Join(ctx, a.Docker.Dockerfile)
			if _, err := os.Stat(dockerfile); err != nil {
				t.Fatalf("Dockerfile: %v", err)
			}
			patterns := dockerignore(t, ctx)
			for _, src := range dockerCopies(t, dockerfile, a.Docker.BuildArgs) {
				if src == "." {
					continue
				}
				if _, err := os.Stat(filepath.Join(ctx, src)); err != nil {
					t.Errorf("%s copies %s: %v", a.Docker.Dockerfile, src, err)
				}
				if ignored(patterns, src) {
					t.Errorf("%s copies %s, which .dockerignore excludes", a.Docker.Dockerfile, src)
				}
			}
			// Dockerfile.go: SERVICE names a Go module with a command of that name.
			if svc, ok := a.Docker.BuildArgs["SERVICE"]; ok {
				dir := filepath.Join("services", svc)
				if svc == "migrate" {
					dir = "migrations"
				}
				if _, err := os.Stat(filepath.Join(ctx, dir, "cmd", svc, "main.go")); err != nil {
					t.Errorf("SERVICE=%s: %v", svc, err)
				}
				if ignored(patterns, filepath.Join(dir, "cmd", svc, "main.go")) || ignored(patterns, "go.work") {
					t.Errorf("SERVICE=%s: .dockerignore excludes its sources or go.work", svc)
				}
			}
			// The chart gets this image's repository and tag.
			key := strings.ReplaceAll(a.Image, "-", "_")
			for field, tmpl := range map[string]string{"repository": "{{.IMAGE_REPO_" + key + "}}", "tag": "{{.IMAGE_TAG_" + key + "}}"} {
				found := false
				for k, v := range release.SetValueTemplates {
					if v == tmpl && strings.HasSuffix(k, ".image."+field) {
						found = true
						handed[strings.TrimSuffix(k, "."+field)] = true
					}
				}
				if !found {
					t.Errorf("no setValueTemplates entry hands %s's %s to the chart", a.Image, field)
				}
			}
		})
	}

	// Every Prode image the chart runs comes from an artifact (the third-party ones do not).
	for _, w := range render(t, valueSets[0]).workloads(t) {
		for _, c := range w.spec.Containers {
			if strings.Contains(c.Image, "/prode-") || strings.HasPrefix(c.Image, "prode-") {
				comp := w.labels["app.kubernetes.io/component"]
				switch comp {
				case "fixtures-seed":
					comp = "fixtures" // the seed runs from the fixtures image
				case "predictions-index":
					comp = "migrations" // `migrate reindex`, from the migrate image
				}
				if !handed[comp+".image"] {
					t.Errorf("%s runs %s, which no skaffold artifact provides (%s.image)", w, c.Image, comp)
				}
			}
		}
	}

	// The kind profile: turned on by the context of dev/kind/cluster.yaml's cluster, and adding
	// values-kind.yaml; port-forwards name Services the kind install has.
	var kindCluster struct {
		Name  string `json:"name"`
		Nodes []struct {
			Labels            map[string]string `json:"labels"`
			ExtraPortMappings []struct {
				ContainerPort int `json:"containerPort"`
				HostPort      int `json:"hostPort"`
			} `json:"extraPortMappings"`
		} `json:"nodes"`
	}
	data, err := os.ReadFile(filepath.Join(repoRoot, "dev", "kind", "cluster.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &kindCluster); err != nil {
		t.Fatal(err)
	}
	mapped := map[int]bool{}
	for _, n := range kindCluster.Nodes {
		for _, p := range n.ExtraPortMappings {
			if n.Labels["ingress-ready"] == "true" && p.ContainerPort == p.HostPort {
				mapped[p.ContainerPort] = true
			}
		}
	}
	if !mapped[80] || !mapped[443] {
		t.Errorf("dev/kind/cluster.yaml: ports 80 and 443 of an ingress-ready node must be mapped to the host")
	}
	var kind bool
	for _, p := range cfg.Profiles {
		if p.Name != "kind" {
			continue
		}
		kind = true
		if len(p.Activation) != 1 || p.Activation[0].KubeContext != "kind-"+kindCluster.Name {
			t.Errorf("kind profile activation %+v, want kubeContext kind-%s", p.Activation, kindCluster.Name)
		}
		var values []string
		for _, patch := range p.Patches {
			if strings.HasPrefix(patch.Path, "/deploy/helm/releases/0/valuesFiles") {
				if list, ok := patch.Value.([]any); ok {
					for _, v := range list {
						values = append(values, v.(string))
					}
				}
			}
		}
		if !slices.Contains(values, "charts/prode/values-kind.yaml") {
			t.Errorf("kind profile values files %v, want charts/prode/values-kind.yaml", values)
		}
	}
	if !kind {
		t.Error("no kind profile")
	}
	kindRender := render(t, valueSets[2])
	services := map[string][]int32{}
	for _, o := range kindRender.objs {
		if o.GetKind() == "Service" {
			services[o.GetName()] = servicePorts(o.Object)
		}
	}
	for _, pf := range cfg.PortForward {
		if pf.ResourceType != "service" || pf.Namespace != release.Namespace || !slices.Contains(services[pf.ResourceName], pf.Port) {
			t.Errorf("port-forward %+v: the kind install has no such Service port (Services: %v)", pf, services)
		}
	}
}

func servicePorts(obj map[string]any) []int32 {
	spec, _ := obj["spec"].(map[string]any)
	list, _ := spec["ports"].([]any)
	var ports []int32
	for _, p := range list {
		if m, ok := p.(map[string]any); ok {
			switch n := m["port"].(type) {
			case int64:
				ports = append(ports, int32(n))
			case float64:
				ports = append(ports, int32(n))
			}
		}
	}
	return ports
}

// With a skaffold binary: skaffold itself parses skaffold.yaml and renders the chart through
// helm with the kind profile, images tagged as skaffold would tag them.
func TestSkaffoldRender(t *testing.T) {
	bin := os.Getenv("SKAFFOLD")
	if bin == "" {
		t.Skip("no skaffold binary (dev/test-chart.sh builds one with SKAFFOLD_BUILD=1)")
	}
	out := filepath.Join(t.TempDir(), "rendered.yaml")
	cmd := exec.Command(bin, "render", "--offline", "--profile", "kind", "--digest-source", "tag",
		"--output", out, "--filename", filepath.Join(repoRoot, "skaffold.yaml"))
	cmd.Dir = repoRoot
	// skaffold runs `helm template`: ours; and keeps its config and cache out of $HOME.
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(mustEnv(t, "HELM"))+":"+os.Getenv("PATH"),
		"HOME="+home, "SKAFFOLD_UPDATE_CHECK=false", "SKAFFOLD_DISABLE_MONITORING=true")
	if combined, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("skaffold render: %v\n%s", err, combined)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := decodeYAML(string(data))
	if err != nil {
		t.Fatal(err)
	}
	m := &manifests{objs: objs}
	images := map[string]string{}
	for _, w := range m.workloads(t) {
		images[w.labels["app.kubernetes.io/component"]] = w.spec.Containers[0].Image
	}
	for comp, repo := range map[string]string{"players": "prode-players", "fixtures": "prode-fixtures",
		"predictions": "prode-predictions", "scoring": "prode-scoring", "web": "prode-web", "migrations": "prode-migrate",
		"predictions-index": "prode-migrate"} {
		if !strings.HasPrefix(images[comp], repo+":") {
			t.Errorf("skaffold render: %s runs %q, want the artifact %s:<tag>", comp, images[comp], repo)
		}
	}
	if images["postgresql"] == "" || !m.has("Ingress") {
		t.Error("skaffold render: the kind values were not applied (no bundled PostgreSQL or Ingress)")
	}
}
