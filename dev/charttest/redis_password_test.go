package charttest

// The bundled Redis requires a password, generated into the chart's Secret, and players and
// scoring read it as REDIS_PASSWORD: a cluster that does not enforce the NetworkPolicies still
// keeps other pods out of the standings cache and the rate limits' buckets.

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
			// 190 bits, and nothing a shell or redis-cli would take apart.
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
				redisURLWithoutPassword(t, name, c)
			}
		})
	}
}

// redisURLWithoutPassword: the services' REDIS_URL names the bundled Redis and holds no password,
// which they get apart (REDIS_PASSWORD, platform/cache.Connect) so that any character stands in
// it: in the URL's user part an operator's "@" or "/" would break the URL.
func redisURLWithoutPassword(t *testing.T, name string, c corev1.Container) {
	t.Helper()
	raw, _ := envValue(c, "REDIS_URL")
	u, err := url.Parse(raw.Value)
	if err != nil {
		t.Fatalf("%s: REDIS_URL %q: %v", name, raw.Value, err)
	}
	if u.User != nil || u.Host != "prode-redis:6379" || strings.Contains(raw.Value, "$(") {
		t.Errorf("%s: REDIS_URL %q: want redis://prode-redis:6379/..., no password", name, raw.Value)
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
	for _, name := range []string{"players", "scoring"} {
		w, _ := m.component(t, name)
		c := w.spec.Containers[0]
		if !fromRedisPassword(c, "REDIS_PASSWORD", "prode-redis-own") {
			t.Errorf("%s: REDIS_PASSWORD is not the key password of Secret prode-redis-own", name)
		}
		redisURLWithoutPassword(t, name, c)
	}
}

func fromRedisPassword(c corev1.Container, name, secret string) bool {
	e, ok := envValue(c, name)
	return ok && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil &&
		e.ValueFrom.SecretKeyRef.Name == secret && e.ValueFrom.SecretKeyRef.Key == "password"
}
