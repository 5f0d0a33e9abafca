package charttest

// The bundled Redis requires a password, generated into the chart's Secret, and players and
// scoring carry it in their REDIS_URL: a cluster that does not enforce the NetworkPolicies
// still keeps other pods out of the standings cache and the rate limits' buckets.

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

const redisPasswordSecret = "prode-redis-password"

func TestBundledRedisRequiresItsPassword(t *testing.T) {
	alphanumeric := regexp.MustCompile(`^[A-Za-z0-9]{32}$`)
	for _, vs := range valueSets {
		t.Run(vs.name, func(t *testing.T) {
			m := render(t, vs)
			redis, bundled := m.component(t, "redis")
			var password string
			found := false
			for _, s := range m.secrets(t) {
				if s.Name == redisPasswordSecret {
					found, password = true, string(s.Data["password"])
				}
			}
			if found != bundled {
				t.Fatalf("Secret %s rendered: %v, with the bundled Redis: %v", redisPasswordSecret, found, bundled)
			}
			if !bundled {
				return
			}
			// Alphanumeric, so that it stands in a URL unescaped.
			if !alphanumeric.MatchString(password) {
				t.Errorf("Redis's password %q: want 32 letters and digits", password)
			}

			c := redis.spec.Containers[0]
			if i := slices.Index(c.Command, "--requirepass"); i < 0 || i+1 >= len(c.Command) || c.Command[i+1] != "$(REDIS_PASSWORD)" {
				t.Errorf("redis-server %v: want --requirepass $(REDIS_PASSWORD)", c.Command)
			}
			if slices.Contains(c.Command, "--protected-mode") {
				t.Errorf("redis-server %v: protected mode need not be turned off with a password", c.Command)
			}
			for _, name := range []string{"REDIS_PASSWORD", "REDISCLI_AUTH"} { // the server's, its probe's
				if !fromRedisPassword(c, name, redisPasswordSecret) {
					t.Errorf("redis: %s is not the key password of Secret %s", name, redisPasswordSecret)
				}
			}

			for _, name := range []string{"players", "scoring"} {
				w, _ := m.component(t, name)
				c := w.spec.Containers[0]
				if !fromRedisPassword(c, "REDIS_PASSWORD", redisPasswordSecret) {
					t.Errorf("%s: REDIS_PASSWORD is not the key password of Secret %s", name, redisPasswordSecret)
				}
				// Kubernetes expands $(REDIS_PASSWORD) only from a variable defined before.
				names := make([]string, len(c.Env))
				for i, e := range c.Env {
					names[i] = e.Name
				}
				if slices.Index(names, "REDIS_PASSWORD") > slices.Index(names, "REDIS_URL") {
					t.Errorf("%s: REDIS_URL comes before REDIS_PASSWORD (%v): it would keep the text $(REDIS_PASSWORD)", name, names)
				}
				raw, _ := envValue(c, "REDIS_URL")
				u, err := url.Parse(strings.ReplaceAll(raw.Value, "$(REDIS_PASSWORD)", password))
				if err != nil {
					t.Fatalf("%s: REDIS_URL %q: %v", name, raw.Value, err)
				}
				if got, _ := u.User.Password(); got != password || u.Host != "prode-redis:6379" {
					t.Errorf("%s: REDIS_URL %q: want the password for prode-redis:6379", name, raw.Value)
				}
			}
		})
	}
}

// With redis.existingSecret the operator's Secret is the only one: Redis and both services read
// its password, and the chart makes none of its own.
func TestBundledRedisWithTheOperatorsPassword(t *testing.T) {
	m := render(t, valueSets[0], "--set", "redis.existingSecret=prode-redis-own")
	for _, s := range m.secrets(t) {
		if s.Name == redisPasswordSecret {
			t.Errorf("Secret %s rendered beside redis.existingSecret", redisPasswordSecret)
		}
	}
	redis, _ := m.component(t, "redis")
	for _, name := range []string{"REDIS_PASSWORD", "REDISCLI_AUTH"} {
		if !fromRedisPassword(redis.spec.Containers[0], name, "prode-redis-own") {
			t.Errorf("redis: %s is not the key password of Secret prode-redis-own", name)
		}
	}
	// Every character _validate.tpl lets such a password hold stands in the rendered REDIS_URL
	// unescaped.
	const allowed = "azAZ09-._~"
	for _, name := range []string{"players", "scoring"} {
		w, _ := m.component(t, name)
		c := w.spec.Containers[0]
		if !fromRedisPassword(c, "REDIS_PASSWORD", "prode-redis-own") {
			t.Errorf("%s: REDIS_PASSWORD is not the key password of Secret prode-redis-own", name)
		}
		raw, _ := envValue(c, "REDIS_URL")
		u, err := url.Parse(strings.ReplaceAll(raw.Value, "$(REDIS_PASSWORD)", allowed))
		if err != nil {
			t.Fatalf("%s: REDIS_URL %q with a password of %q: %v", name, raw.Value, allowed, err)
		}
		if got, _ := u.User.Password(); got != allowed {
			t.Errorf("%s: REDIS_URL %q with a password of %q reads %q", name, raw.Value, allowed, got)
		}
	}
}

func fromRedisPassword(c corev1.Container, name, secret string) bool {
	e, ok := envValue(c, name)
	return ok && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil &&
		e.ValueFrom.SecretKeyRef.Name == secret && e.ValueFrom.SecretKeyRef.Key == "password"
}
