package charttest

// The Secrets the pods read: SESSION_KEY_PREVIOUS for a key rotation, pods that roll when an
// operator changes a Secret (checksum/secrets), and generated passwords that outlive an
// uninstall while the bundled PostgreSQL keeps its data.

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Session keys of the tests: base64 of 32 bytes each, as the services want them.
const (
	testKey      = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // 0123456789abcdef0123456789abcdef
	rotatedInKey = "ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=" // fedcba9876543210fedcba9876543210
)

// Every Go service reads SESSION_KEY_PREVIOUS from the session Secret, optionally: a Secret
// without session-key-previous (the usual case) must not keep the pods from starting.
func TestPreviousSessionKeyReachesEveryService(t *testing.T) {
	eachGoContainer(t, func(t *testing.T, name string, c corev1.Container) {
		current, ok1 := envValue(c, "SESSION_KEY")
		previous, ok2 := envValue(c, "SESSION_KEY_PREVIOUS")
		if !ok1 || !ok2 || current.ValueFrom == nil || previous.ValueFrom == nil ||
			current.ValueFrom.SecretKeyRef == nil || previous.ValueFrom.SecretKeyRef == nil {
			t.Fatalf("%s: SESSION_KEY %+v, SESSION_KEY_PREVIOUS %+v; want both from a Secret", name, current, previous)
		}
		ref := previous.ValueFrom.SecretKeyRef
		if ref.Name != current.ValueFrom.SecretKeyRef.Name || ref.Key != "session-key-previous" || ref.Optional == nil || !*ref.Optional {
			t.Errorf("%s: SESSION_KEY_PREVIOUS from %+v; want optional key session-key-previous of %s", name, ref, current.ValueFrom.SecretKeyRef.Name)
		}
	})

	// session.previousKey goes into the chart's Secret; unset, the key is absent.
	sessionSecret := func(m *manifests) corev1.Secret {
		for _, s := range m.secrets(t) {
			if s.Name == "prode-session" {
				return s
			}
		}
		t.Fatal("no Secret prode-session")
		return corev1.Secret{}
	}
	external := valueSets[3]
	if _, ok := sessionSecret(render(t, external)).Data["session-key-previous"]; ok {
		t.Error("session-key-previous is in the Secret without session.previousKey")
	}
	got := sessionSecret(render(t, external, "--set", "session.key="+rotatedInKey+",session.previousKey="+testKey)).Data
	if string(got["session-key"]) != rotatedInKey || string(got["session-key-previous"]) != testKey {
		t.Errorf("session Secret after a rotation: session-key %q, session-key-previous %q", got["session-key"], got["session-key-previous"])
	}
}

// checksumSecrets: each Go service's checksum/secrets pod annotation, by service.
func checksumSecrets(t *testing.T, m *manifests) map[string]string {
	t.Helper()
	sums := map[string]string{}
	for _, d := range m.deployments(t) {
		if name := d.Spec.Template.Labels["app.kubernetes.io/component"]; slices.Contains(goServices, name) {
			sums[name] = d.Spec.Template.Annotations["checksum/secrets"]
		}
	}
	if len(sums) != len(goServices) {
		t.Fatalf("checksum/secrets on %d Go services: %v", len(sums), sums)
	}
	return sums
}

// Offline (helm template: lookup finds nothing) the chart's own Secrets still count: the same
// values give the same checksum, a changed session key another one on every service.
func TestSecretsChecksumFollowsTheChartsSecrets(t *testing.T) {
	external := valueSets[3]
	first, again := checksumSecrets(t, render(t, external)), checksumSecrets(t, render(t, external))
	if !maps.Equal(first, again) {
		t.Errorf("the same values, different checksums: %v, %v", first, again)
	}
	rotated := checksumSecrets(t, render(t, external, "--set", "session.previousKey="+rotatedInKey))
	for _, name := range goServices {
		if rotated[name] == first[name] {
			t.Errorf("%s: checksum/secrets unchanged by session.previousKey", name)
		}
	}
}

// Acceptance (issue 12): an operator's Secret changed with `kubectl apply`, then `helm
// upgrade`, rolls exactly the pods that read it; an upgrade that changes nothing rolls none.
func TestOperatorSecretChangeRollsItsPods(t *testing.T) {
	c := apiServer(t)
	ns := "prode-secret-rollout"
	c.restrictedNamespace(t, ns)
	c.productionSecrets(t, ns)
	args := []string{"prode", chartDir, "--namespace", ns, "--timeout", "2m", "-f", valueSets[1].args[1]}
	ctrl := c.startFakeControllers(t, ns, nil)
	defer ctrl.halt()
	helmClean(t, append([]string{"install"}, args...)...)

	// pods: each Deployment's checksum/secrets and generation.
	type podTemplate struct {
		checksum   string
		generation int64
	}
	pods := func() map[string]podTemplate {
		list, err := c.cs.AppsV1().Deployments(ns).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]podTemplate{}
		for _, d := range list.Items {
			out[d.Spec.Template.Labels["app.kubernetes.io/component"]] = podTemplate{d.Spec.Template.Annotations["checksum/secrets"], d.Generation}
		}
		return out
	}
	upgradeRolls := func(step string, want ...string) {
		t.Helper()
		before := pods()
		helmClean(t, append([]string{"upgrade"}, args...)...)
		after := pods()
		var rolled []string
		for name, b := range before {
			if a := after[name]; a.generation != b.generation {
				rolled = append(rolled, name)
				if a.checksum == b.checksum {
					t.Errorf("%s: %s changed, but not its checksum/secrets", step, name)
				}
			}
		}
		slices.Sort(rolled)
		slices.Sort(want)
		if !slices.Equal(rolled, want) {
			t.Errorf("%s: the upgrade changed the pod templates of %v, want %v", step, rolled, want)
		}
		t.Logf("%s: the upgrade rolled %v", step, rolled)
	}
	change := func(secret string, data map[string]string) {
		t.Helper()
		s, err := c.cs.CoreV1().Secrets(ns).Get(context.Background(), secret, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range data {
			s.Data[k] = []byte(v)
		}
		if _, err := c.cs.CoreV1().Secrets(ns).Update(context.Background(), s, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	upgradeRolls("nothing changed")
	// A session key rotation: the new key signs, the old one still verifies.
	change("prode-session", map[string]string{"session-key": rotatedInKey, "session-key-previous": testKey})
	upgradeRolls("prode-session rotated", goServices...)
	change("prode-redis", map[string]string{"redis-url": "rediss://redis-2.example.org:6380/0"})
	upgradeRolls("prode-redis changed", "players", "scoring")
	change("prode-google", map[string]string{"client-secret": "a new secret"})
	upgradeRolls("prode-google changed", "players")
	change("prode-database", map[string]string{"predictions-database-url": "postgres://prode_predictions:pw2@db.example.org:5432/prode?sslmode=require"})
	upgradeRolls("prode-database changed", goServices...)
}

// Acceptance (issue 12): with the bundled PostgreSQL on a PersistentVolumeClaim, `helm
// uninstall` then `helm install` keeps the generated passwords (the data directory keeps the
// superuser password it was initialised with; a new one would lock the migrations Job out) and
// the session key; the second install adopts the kept Secrets, so they stay the release's.
// Without persistence there is nothing to keep them for, and they go with the release.
func TestReinstallKeepsTheDatabasePasswords(t *testing.T) {
	c := apiServer(t)
	generated := []string{"prode-postgresql", "prode-session"}
	for _, tc := range []struct {
		name    string
		args    []string
		keeps   bool
		wantLen int
	}{
		{"persistent", nil, true, 6},
		{"ephemeral", []string{"--set", "postgresql.persistence.enabled=false"}, false, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ns := "prode-reinstall-" + tc.name
			c.restrictedNamespace(t, ns)
			args := append([]string{"prode", chartDir, "--namespace", ns, "--timeout", "2m"}, tc.args...)
			install := func(step string) {
				t.Helper()
				// The migrations Job must find the passwords the database has: the kept ones.
				var jobSaw map[string]string
				ctrl := c.startFakeControllers(t, ns, func(job *batchv1.Job) {
					if job.Labels["app.kubernetes.io/component"] == "migrations" {
						jobSaw = c.secretData(t, ns, "prode-postgresql")
					}
				})
				helmClean(t, append([]string{"install"}, args...)...)
				ctrl.halt()
				if len(jobSaw) != 5 {
					t.Errorf("%s: the migrations Job ran with %d database passwords, want 5", step, len(jobSaw))
				}
			}

			install("first install")
			before := c.secretData(t, ns, generated...)
			if len(before) != tc.wantLen {
				t.Fatalf("generated Secrets: %d keys, want %d", len(before), tc.wantLen)
			}
			out := helmClean(t, "uninstall", "prode", "--namespace", ns)
			if deps := c.deploymentStates(t, ns); len(deps) != 0 {
				t.Fatalf("after helm uninstall, %d Deployments are left", len(deps))
			}
			left := c.secretData(t, ns, generated...)
			if !tc.keeps {
				if len(left) != 0 {
					t.Errorf("without persistence, helm uninstall left the generated Secrets (%d keys)", len(left))
				}
				return
			}
			if !maps.Equal(left, before) {
				t.Fatalf("helm uninstall did not keep the generated Secrets as they were: %d keys left of %d\n%s", len(left), len(before), out)
			}
			for _, name := range generated {
				if !strings.Contains(out, "[Secret] "+name) {
					t.Errorf("helm uninstall did not say it kept Secret %s:\n%s", name, out)
				}
			}

			install("second install")
			if after := c.secretData(t, ns, generated...); !maps.Equal(after, before) {
				t.Errorf("the second install changed the generated Secrets (%d keys before, %d after)", len(before), len(after))
			}
			// Adopted: the second release owns them, so its upgrades manage them and its
			// uninstall keeps them again.
			manifest := helmClean(t, "get", "manifest", "prode", "--namespace", ns)
			for _, name := range generated {
				s, err := c.cs.CoreV1().Secrets(ns).Get(context.Background(), name, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(manifest, "name: "+name+"\n") || s.Annotations["meta.helm.sh/release-name"] != "prode" {
					t.Errorf("Secret %s is not part of the second release (annotations %v)", name, s.Annotations)
				}
				if s.Annotations["helm.sh/resource-policy"] != "keep" {
					t.Errorf("Secret %s lost helm.sh/resource-policy: keep", name)
				}
			}
			helmClean(t, "uninstall", "prode", "--namespace", ns)
			if _, err := c.cs.CoreV1().Secrets(ns).Get(context.Background(), "prode-postgresql", metav1.GetOptions{}); apierrors.IsNotFound(err) {
				t.Error("the second uninstall deleted the adopted prode-postgresql")
			}
		})
	}
}
