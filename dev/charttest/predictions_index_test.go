package charttest

// The predictions-index CronJob (predictionsIndex.rebuild): `migrate reindex` from the migrate
// image every few minutes, one run at a time, as the migrating role with the migrations Job's
// own credentials, which outlive the Job where the chart makes them.

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// predictionsIndexCronJob is the rendered release's one CronJob and its container.
func predictionsIndexCronJob(t *testing.T, m *manifests) (batchv1.CronJob, corev1.Container) {
	t.Helper()
	cjs := m.cronJobs(t)
	if len(cjs) != 1 {
		t.Fatalf("%d CronJobs, want 1 (predictions-index)", len(cjs))
	}
	cj := cjs[0]
	pod := cj.Spec.JobTemplate.Spec.Template
	if comp := pod.Labels["app.kubernetes.io/component"]; comp != "predictions-index" {
		t.Errorf("CronJob %s: pods of component %q, want predictions-index", cj.Name, comp)
	}
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("CronJob %s: %d containers, want 1", cj.Name, len(pod.Spec.Containers))
	}
	return cj, pod.Spec.Containers[0]
}

// migrationsContainer is the migrations Job's container.
func migrationsContainer(t *testing.T, m *manifests) corev1.Container {
	t.Helper()
	for _, j := range m.jobs(t) {
		if j.Spec.Template.Labels["app.kubernetes.io/component"] == "migrations" {
			return j.Spec.Template.Spec.Containers[0]
		}
	}
	t.Fatal("no migrations Job")
	return corev1.Container{}
}

func envFromSecrets(c corev1.Container) []string {
	var names []string
	for _, f := range c.EnvFrom {
		if f.SecretRef != nil {
			names = append(names, f.SecretRef.Name)
		}
	}
	return names
}

func TestPredictionsIndexCronJob(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs)
			cj, c := predictionsIndexCronJob(t, m)
			mig := migrationsContainer(t, m)

			if !slices.Equal(c.Command, []string{"/usr/local/bin/migrate", "reindex"}) || len(c.Args) != 0 {
				t.Errorf("CronJob %s runs %v %v, want /usr/local/bin/migrate reindex", cj.Name, c.Command, c.Args)
			}
			if c.Image != mig.Image || !strings.Contains(c.Image, "prode-migrate:") {
				t.Errorf("CronJob %s: image %s, want the migrations Job's migrate image %s", cj.Name, c.Image, mig.Image)
			}
			vals := chartValues(t, vs)
			schedule, _ := vals["predictionsIndex"].(map[string]any)["schedule"].(string)
			if cj.Spec.Schedule != schedule || schedule == "" {
				t.Errorf("CronJob %s: schedule %q, want predictionsIndex.schedule %q", cj.Name, cj.Spec.Schedule, schedule)
			}
			// One run at a time (a second would find the advisory lock taken, holding a
			// connection for nothing); no pile of old Jobs; a retry or two, and time for a
			// rebuild at any size.
			s := cj.Spec
			if s.ConcurrencyPolicy != batchv1.ForbidConcurrent {
				t.Errorf("CronJob %s: concurrencyPolicy %q, want Forbid", cj.Name, s.ConcurrencyPolicy)
			}
			if s.StartingDeadlineSeconds == nil || *s.StartingDeadlineSeconds < 10 {
				t.Errorf("CronJob %s: startingDeadlineSeconds %v, want one (at least 10 s)", cj.Name, s.StartingDeadlineSeconds)
			}
			if s.SuccessfulJobsHistoryLimit == nil || *s.SuccessfulJobsHistoryLimit > 3 ||
				s.FailedJobsHistoryLimit == nil || *s.FailedJobsHistoryLimit > 3 {
				t.Errorf("CronJob %s: history limits %v/%v, want at most 3 each", cj.Name, s.SuccessfulJobsHistoryLimit, s.FailedJobsHistoryLimit)
			}
			js := s.JobTemplate.Spec
			if js.BackoffLimit == nil || *js.BackoffLimit > 3 {
				t.Errorf("CronJob %s: backoffLimit %v, want at most 3", cj.Name, js.BackoffLimit)
			}
			if js.ActiveDeadlineSeconds == nil || *js.ActiveDeadlineSeconds < 600 {
				t.Errorf("CronJob %s: activeDeadlineSeconds %v, want at least 600 (a rebuild takes 35 s at 32 million predictions)",
					cj.Name, js.ActiveDeadlineSeconds)
			}
			if rp := js.Template.Spec.RestartPolicy; rp != corev1.RestartPolicyNever && rp != corev1.RestartPolicyOnFailure {
				t.Errorf("CronJob %s: restartPolicy %q", cj.Name, rp)
			}
			if es := js.Template.Spec.EnableServiceLinks; es == nil || *es {
				t.Errorf("CronJob %s: service links on", cj.Name)
			}

			// The migrating role's URL, from where the migrations Job gets it.
			for _, e := range c.Env {
				if strings.HasPrefix(e.Name, "ROLE_PASSWORD_") {
					t.Errorf("CronJob %s: %s set; reindex sets no password", cj.Name, e.Name)
				}
			}
			switch {
			case m.has("StatefulSet"): // the bundled PostgreSQL: its superuser, as the Job
				for _, name := range []string{"POSTGRES_PASSWORD", "DATABASE_URL"} {
					got, ok1 := envValue(c, name)
					want, ok2 := envValue(mig, name)
					if !ok1 || !ok2 || !reflect.DeepEqual(got, want) {
						t.Errorf("CronJob %s: %s %+v, want the migrations Job's %+v", cj.Name, name, got, want)
					}
				}
				if u := databaseURL(t, m, c); u == nil || u.Host != "prode-postgresql:5432" || u.User.Username() != "postgres" {
					t.Errorf("CronJob %s: DATABASE_URL %v, want postgres at prode-postgresql:5432", cj.Name, u)
				}
				if len(c.EnvFrom) != 0 {
					t.Errorf("CronJob %s: envFrom %+v beside the bundled database's URL", cj.Name, c.EnvFrom)
				}
			case len(envFromSecrets(mig)) == 1 && !hasSecret(t, m, envFromSecrets(mig)[0]):
				// The operator's Secret (migrations.existingSecret): the same one.
				if got := envFromSecrets(c); !slices.Equal(got, envFromSecrets(mig)) {
					t.Errorf("CronJob %s: envFrom Secrets %v, want the operator's %v, as the migrations Job", cj.Name, got, envFromSecrets(mig))
				}
			default:
				// migrations.databaseUrl: the Job's Secret is a hook, gone after the Job, so the
				// CronJob has a regular Secret of its own with the same URL.
				got := envFromSecrets(c)
				if len(got) != 1 || slices.Equal(got, envFromSecrets(mig)) {
					t.Fatalf("CronJob %s: envFrom Secrets %v, want one of its own (not the hook Secret %v)", cj.Name, got, envFromSecrets(mig))
				}
				own, hook := secretNamed(t, m, got[0]), secretNamed(t, m, envFromSecrets(mig)[0])
				for k := range own.Annotations {
					if strings.HasPrefix(k, "helm.sh/hook") {
						t.Errorf("Secret %s: annotation %s: a hook Secret would be gone, or missing, when the CronJob runs", own.Name, k)
					}
				}
				if keys := slices.Sorted(maps.Keys(own.Data)); !slices.Equal(keys, []string{"DATABASE_URL"}) {
					t.Errorf("Secret %s: keys %v, want DATABASE_URL only", own.Name, keys)
				}
				if string(own.Data["DATABASE_URL"]) != string(hook.Data["DATABASE_URL"]) || len(own.Data["DATABASE_URL"]) == 0 {
					t.Errorf("Secret %s: DATABASE_URL %q, want migrations.databaseUrl %q", own.Name, own.Data["DATABASE_URL"], hook.Data["DATABASE_URL"])
				}
				if own.Labels["app.kubernetes.io/component"] != "predictions-index" {
					t.Errorf("Secret %s: labels %v", own.Name, own.Labels)
				}
			}
		})
	}
}

// Which credential case each value set is: all three are covered.
func TestPredictionsIndexCredentialCases(t *testing.T) {
	var bundled, existing, own bool
	for _, vs := range valueSets {
		m := render(t, vs)
		_, c := predictionsIndexCronJob(t, m)
		secrets := envFromSecrets(c)
		switch {
		case m.has("StatefulSet"):
			bundled = true
		case len(secrets) == 1 && hasSecret(t, m, secrets[0]):
			own = true
		case len(secrets) == 1:
			existing = true
		}
	}
	if !bundled || !existing || !own {
		t.Errorf("value sets cover the bundled database %v, migrations.existingSecret %v, migrations.databaseUrl %v; want all three", bundled, existing, own)
	}
}

// predictionsIndex.rebuild=false: no CronJob, no Secret for it, no connection counted for it.
func TestPredictionsIndexOff(t *testing.T) {
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs, "--set", "predictionsIndex.rebuild=false")
			if cjs := m.cronJobs(t); len(cjs) != 0 {
				t.Errorf("predictionsIndex.rebuild=false renders %d CronJobs", len(cjs))
			}
			for _, s := range m.secrets(t) {
				if s.Labels["app.kubernetes.io/component"] == "predictions-index" {
					t.Errorf("predictionsIndex.rebuild=false renders Secret %s", s.Name)
				}
			}
		})
	}
	// The chart's own count drops the CronJob's connection too.
	_, errOut, err := helm(t, "template", "prode", chartDir, "-f", "testdata/values-over-budget.yaml", "--set", "predictionsIndex.rebuild=false")
	if err == nil || !strings.Contains(errOut, "may open 493") || strings.Contains(errOut, "predictions-index") {
		t.Errorf("over budget without the CronJob: err %v, stderr %q; want a refusal counting 493, without the CronJob", err, errOut)
	}
}

// The Job controller names a CronJob's Jobs after it plus 11 characters: its name fits in 52
// even when the release's names are long.
func TestPredictionsIndexLongName(t *testing.T) {
	long := strings.Repeat("a", 50)
	m := render(t, valueSets[0], "--set", "fullnameOverride="+long)
	cj, _ := predictionsIndexCronJob(t, m)
	if len(cj.Name) > 52 || !strings.HasPrefix(cj.Name, long) || strings.HasSuffix(cj.Name, "-") {
		t.Errorf("CronJob name %q (%d characters), want at most 52", cj.Name, len(cj.Name))
	}
}

func hasSecret(t *testing.T, m *manifests, name string) bool {
	t.Helper()
	return slices.ContainsFunc(m.secrets(t), func(s corev1.Secret) bool { return s.Name == name })
}

func secretNamed(t *testing.T, m *manifests, name string) corev1.Secret {
	t.Helper()
	for _, s := range m.secrets(t) {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no Secret %s in the release", name)
	return corev1.Secret{}
}
