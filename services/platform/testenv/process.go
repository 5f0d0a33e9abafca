package testenv

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

// FreeAddr returns a loopback address with a port nobody listens on, for a service binary
// a test starts.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// WaitReady polls url (a service's /readyz) until it answers 200, for at most 30 seconds.
func WaitReady(t testing.TB, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the service never became ready: " + url)
}
