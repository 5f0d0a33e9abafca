package testenv

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// Seconds is how long a scenario's fault lasts: the whole seconds (1 or more) the environment
// variable name says, or def when it is unset (`make soak` sets longer ones than `make test`).
func Seconds(t testing.TB, name string, def time.Duration) time.Duration {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q", name, s)
	}
	return time.Duration(n) * time.Second
}
