package testenv

import (
	"testing"
	"time"
)

// Until checks cond every 10 ms until it holds; past within, the test fails saying what it
// waited for.
func Until(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
