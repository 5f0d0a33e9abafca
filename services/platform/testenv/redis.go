package testenv

import (
	"os"
	"testing"
)

// Redis returns the test Redis URL and a key prefix no other test uses.
func Redis(t testing.TB) (url, prefix string) {
	t.Helper()
	url = os.Getenv("PRODE_TEST_REDIS_URL")
	if url == "" {
		t.Fatal("PRODE_TEST_REDIS_URL is not set: run the tests with `make test`, which starts a throwaway Redis")
	}
	return url, "test-" + randomHex(6) + ":"
}
