package charttest

// The Secrets the pods read: SESSION_KEY_PREVIOUS for a key rotation, pods that roll when an
// operator changes a Secret (checksum/secrets), and generated passwords that outlive an
// uninstall while the bundled PostgreSQL keeps its data.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
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

// secretReaders: for each Secret key that a Deployment's containers read in their env
// ("SECRET/KEY"), the components that read it, sorted. What the chart's checksums must follow,
// taken from the pods themselves.
func secretReaders(deployments []appsv1.Deployment) map[string][]string {
	readers := map[string][]string{}
	for _, d := range deployments {
		name := d.Spec.Template.Labels["app.kubernetes.io/component"]
		for _, c := range d.Spec.Template.Spec.Containers {
			for _, e := range c.Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
					key := e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
					if !slices.Contains(readers[key], name) {
						readers[key] = append(readers[key], name)
					}
				}
			}
		}
	}
	for _, names := range readers {
		slices.Sort(names)
	}
	return readers
}

// changedChecksums: the Go services whose checksum/secrets differ between two renders, sorted.
func changedChecksums(before, after map[string]string) []string {
	var changed []string
	for _, name := range goServices {
		if before[name] != after[name] {
			changed = append(changed, name)
		}
	}
	slices.Sort(changed)
	return changed
}

// Offline (helm template: lookup finds nothing) the chart's own Secrets count, key by key: the
// same values give the same checksums, and a changed value changes the checksums of exactly the
// services whose env reads its key (a new Google client secret rolls players alone, one
// service's database URL that service alone, Redis's URL players and scoring).
func TestChartSecretValuesRollOnlyTheirReaders(t *testing.T) {
	external := valueSets[3]
	m := render(t, external)
	first, again := checksumSecrets(t, m), checksumSecrets(t, render(t, external))
	if !maps.Equal(first, again) {
		t.Errorf("the same values, different checksums: %v, %v", first, again)
	}
	readers := secretReaders(m.deployments(t))
	for _, tc := range []struct{ set, key string }{
		{"session.key=" + rotatedInKey, "prode-session/session-key"},
		{"session.previousKey=" + rotatedInKey, "prode-session/session-key-previous"},
		{"auth.google.clientId=other.apps.googleusercontent.com", "prode-google/client-id"},
		{"auth.google.clientSecret=another-secret", "prode-google/client-secret"},
		{"externalDatabase.urls.predictions=postgres://prode_predictions:pw2@db.example.org:5432/prode", "prode-database/predictions-database-url"},
		{"externalDatabase.urls.players=postgres://prode_players:pw2@db.example.org:5432/prode", "prode-database/players-database-url"},
		{"externalRedis.url=redis://redis-2.example.org:6379/0", "prode-redis-url/redis-url"},
	} {
		want := readers[tc.key]
		if len(want) == 0 {
			t.Fatalf("no Go service reads %s: %v", tc.key, readers)
		}
		if got := changedChecksums(first, checksumSecrets(t, render(t, external, "--set", tc.set))); !slices.Equal(got, want) {
			t.Errorf("--set %s changed the checksum/secrets of %v, want %v (the readers of %s)", tc.set, got, want, tc.key)
		}
	}
}

// Acceptance (issue 12): an operator's Secret changed with `kubectl apply`, then `helm
// upgrade`, rolls exactly the pods that read the changed key; an upgrade that changes nothing
// rolls none. Every key the Deployments' env reads is changed in turn, with the production
// values, and with PgBouncer in front of the external database (its Secret read by PgBouncer
// and the three services behind it).
func TestOperatorSecretChangeRollsItsPods(t *testing.T) {
	c := apiServer(t)
	shared := []string{
		"prode-google/client-id", "prode-google/client-secret", "prode-redis/redis-url",
		"prode-session/session-key", "prode-session/session-key-previous",
	}
	for _, tc := range []struct {
		name string
		args []string
		keys []string
	}{
		{"production", nil, append([]string{
			"prode-database/fixtures-database-url", "prode-database/players-database-url",
			"prode-database/predictions-database-url", "prode-database/scoring-database-url",
		}, shared...)},
		{"pgbouncer", []string{"--set", "pgbouncer.enabled=true,pgbouncer.database.host=db.example.org,pgbouncer.existingSecret=prode-pgbouncer"}, append([]string{
			"prode-database/scoring-database-url", "prode-pgbouncer/fixtures-password",
			"prode-pgbouncer/players-password", "prode-pgbouncer/predictions-password",
		}, shared...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ns := "prode-secret-rollout-" + tc.name
			c.restrictedNamespace(t, ns)
			c.productionSecrets(t, ns)
			c.secret(t, ns, "prode-pgbouncer", map[string]string{"players-password": "pw", "fixtures-password": "pw", "predictions-password": "pw"})
			r := installForRolls(t, c, ns, append([]string{"-f", valueSets[1].args[1]}, tc.args...)...)
			defer r.ctrl.halt()

			r.upgradeRolls("nothing changed")
			list, err := c.cs.AppsV1().Deployments(ns).List(context.Background(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			readers := secretReaders(list.Items)
			keys := slices.Sorted(maps.Keys(readers))
			slices.Sort(tc.keys)
			if !slices.Equal(keys, tc.keys) {
				t.Fatalf("the Deployments read the Secret keys %v, want %v", keys, tc.keys)
			}
			for i, key := range keys {
				secret, k, _ := strings.Cut(key, "/")
				r.change(secret, map[string]string{k: fmt.Sprintf("changed-%d", i)})
				r.upgradeRolls(key+" changed", readers[key]...)
			}
		})
	}
}

// The bundled Redis with the operator's password (redis.existingSecret): a change of it, then
// `helm upgrade`, restarts Redis and rolls its two clients, and nothing else, whatever
// characters it holds (the services get it apart from REDIS_URL).
func TestOperatorRedisPasswordRollsRedisAndItsClients(t *testing.T) {
	c := apiServer(t)
	ns := "prode-redis-password"
	c.restrictedNamespace(t, ns)
	c.secret(t, ns, "prode-redis-own", map[string]string{"password": "first-Password.0~"})
	r := installForRolls(t, c, ns, "--set", "redis.existingSecret=prode-redis-own")
	defer r.ctrl.halt()
	if got := c.secretData(t, ns, redisPasswordSecret); len(got) != 0 {
		t.Errorf("with redis.existingSecret the chart still made its own password: %v", got)
	}

	r.upgradeRolls("nothing changed")
	r.change("prode-redis-own", map[string]string{"password": "second-Password.1~"})
	r.upgradeRolls("the Redis password changed", "players", "redis", "scoring")
	r.change("prode-redis-own", map[string]string{"password": "p@ss:word/1 ü#?%"})
	r.upgradeRolls("a password a URL would need escaped", "players", "redis", "scoring")
}

// The password the chart makes for the bundled Redis: the first `helm upgrade` after the install
// rolls nothing (the pods' checksums are of the values in the Secrets, not of another random
// render), and a new password (the Secret deleted, as docs/operations.md says) restarts Redis
// and rolls its two clients in the same upgrade.
func TestGeneratedRedisPasswordChangeRollsRedisAndItsClients(t *testing.T) {
	c := apiServer(t)
	ns := "prode-redis-generated"
	c.restrictedNamespace(t, ns)
	r := installForRolls(t, c, ns)
	defer r.ctrl.halt()

	r.upgradeRolls("nothing changed")
	first := c.secretData(t, ns, redisPasswordSecret)
	if err := c.cs.CoreV1().Secrets(ns).Delete(context.Background(), redisPasswordSecret, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	r.upgradeRolls("the Redis password deleted", "players", "redis", "scoring")
	if now := c.secretData(t, ns, redisPasswordSecret); len(now) != 1 || maps.Equal(now, first) {
		t.Errorf("after the Secret was deleted and the release upgraded: %d keys, the same password: %v", len(now), maps.Equal(now, first))
	}
}

// rolls follows which Deployments' pod templates each `helm upgrade` of a release changes.
type rolls struct {
	t    *testing.T
	c    *cluster
	ns   string
	args []string
	ctrl *fakeControllers
}

// installForRolls installs the chart into ns with the given values (the caller halts ctrl).
func installForRolls(t *testing.T, c *cluster, ns string, values ...string) *rolls {
	r := &rolls{t: t, c: c, ns: ns, args: append([]string{"prode", chartDir, "--namespace", ns, "--timeout", "2m"}, values...)}
	r.ctrl = c.startFakeControllers(t, ns, nil)
	helmClean(t, append([]string{"install"}, r.args...)...)
	return r
}

type podTemplate struct {
	checksum   string
	generation int64
}

// pods: each Deployment's checksum/secrets and generation, by component.
func (r *rolls) pods() map[string]podTemplate {
	list, err := r.c.cs.AppsV1().Deployments(r.ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		r.t.Fatal(err)
	}
	out := map[string]podTemplate{}
	for _, d := range list.Items {
		out[d.Spec.Template.Labels["app.kubernetes.io/component"]] = podTemplate{d.Spec.Template.Annotations["checksum/secrets"], d.Generation}
	}
	return out
}

// upgradeRolls runs `helm upgrade` and requires that exactly the components want rolled, each
// through a changed checksum/secrets.
func (r *rolls) upgradeRolls(step string, want ...string) {
	r.t.Helper()
	before := r.pods()
	helmClean(r.t, append([]string{"upgrade"}, r.args...)...)
	after := r.pods()
	var rolled []string
	for name, b := range before {
		if a := after[name]; a.generation != b.generation {
			rolled = append(rolled, name)
			if a.checksum == b.checksum {
				r.t.Errorf("%s: %s changed, but not its checksum/secrets", step, name)
			}
		}
	}
	slices.Sort(rolled)
	slices.Sort(want)
	if !slices.Equal(rolled, want) {
		r.t.Errorf("%s: the upgrade changed the pod templates of %v, want %v", step, rolled, want)
	}
	r.t.Logf("%s: the upgrade rolled %v", step, rolled)
}

// change updates keys of an existing Secret, as `kubectl apply` of a changed one would.
func (r *rolls) change(secret string, data map[string]string) {
	r.t.Helper()
	s, err := r.c.cs.CoreV1().Secrets(r.ns).Get(context.Background(), secret, metav1.GetOptions{})
	if err != nil {
		r.t.Fatal(err)
	}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	if _, err := r.c.cs.CoreV1().Secrets(r.ns).Update(context.Background(), s, metav1.UpdateOptions{}); err != nil {
		r.t.Fatal(err)
	}
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
