package service

import (
	"strings"
	"testing"

	"prode/platform/config"
)

// TRUSTED_PROXY_HOPS: one proxy (the ingress) unless told otherwise, 0 to ignore
// X-Forwarded-For, and anything else refused at start rather than guessed.
func TestTrustedProxyHops(t *testing.T) {
	for value, want := range map[string]int{"": 1, "0": 0, "1": 1, "2": 2, "10": 10} {
		env := config.FromMap(map[string]string{"TRUSTED_PROXY_HOPS": value})
		if got := ReadBase(env, "test").HTTP.TrustedProxyHops; got != want {
			t.Errorf("TRUSTED_PROXY_HOPS=%q: %d, want %d", value, got, want)
		}
		if err := env.Err(); err != nil && strings.Contains(err.Error(), "TRUSTED_PROXY_HOPS") {
			t.Errorf("TRUSTED_PROXY_HOPS=%q refused: %v", value, err)
		}
	}
	for _, value := range []string{"-1", "11", "one"} {
		env := config.FromMap(map[string]string{"TRUSTED_PROXY_HOPS": value})
		ReadBase(env, "test")
		if err := env.Err(); err == nil || !strings.Contains(err.Error(), "TRUSTED_PROXY_HOPS must be an integer from 0 to 10") {
			t.Errorf("TRUSTED_PROXY_HOPS=%q: %v, want it refused", value, err)
		}
	}
}
