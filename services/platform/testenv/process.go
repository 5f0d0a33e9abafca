package testenv

import (
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
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

// FreePort returns a loopback port nobody uses, drawn at random below Linux's ephemeral range
// (32768-60999), for a server that a test stops and starts again on the same port (PostgreSQL
// and Redis in the outage scenarios). While such a server is down, a port of the ephemeral range
// may become the local port of an outgoing connection, and the server could not listen on it
// again: CI saw Redis fail so ("bind: Address already in use") on a fixed port of that range.
// dev/lib.sh free_port draws from the same range for the same reason.
func FreePort(t testing.TB) int {
	t.Helper()
	for range 500 {
		port := 24000 + rand.IntN(32768-24000)
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			ln.Close()
			return port
		}
	}
	t.Fatal("no free port in 24000-32767")
	return 0
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
