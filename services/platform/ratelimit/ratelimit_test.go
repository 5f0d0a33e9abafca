package ratelimit

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"prode/platform/httpserver"
)

func TestBucketsRefillAndIdleKeysAreForgotten(t *testing.T) {
	ctx := context.Background()
	l := New(1, 2) // 1/s, burst 2: a bucket is full again after 2 s; forgotten after a minute
	now := time.Unix(1_000_000, 0)
	l.SetClock(func() time.Time { return now })
	for i := 0; i < 2; i++ {
		if ok, _ := l.Allow(ctx, "a"); !ok {
			t.Fatalf("request %d within the burst refused", i)
		}
	}
	if ok, wait := l.Allow(ctx, "a"); ok || wait != time.Second {
		t.Fatalf("past the burst: ok=%v wait=%v", ok, wait)
	}
	// A refused request does not consume: after one second exactly one more is allowed.
	now = now.Add(time.Second)
	if ok, _ := l.Allow(ctx, "a"); !ok {
		t.Fatal("after a second: refused")
	}
	if ok, _ := l.Allow(ctx, "a"); ok {
		t.Fatal("two after a second: allowed")
	}
	for i := 0; i < 1000; i++ {
		l.Allow(ctx, fmt.Sprint("k", i))
	}
	if l.Len() != 1001 {
		t.Fatalf("len %d", l.Len())
	}
	now = now.Add(2 * time.Minute)
	l.Allow(ctx, "b")
	if l.Len() != 1 {
		t.Fatalf("idle keys kept: %d", l.Len())
	}
}

// The per-address sign-in limit keys on the address the nearest trusted proxy saw: a client
// that sends its own X-Forwarded-For, through a proxy that appends (the header then reads
// "<forged>, <client>") or one that overwrites, still draws from its own bucket, and with no
// trusted proxy the header is ignored altogether.
func TestForgedForwardedForDoesNotChangeTheBucket(t *testing.T) {
	cases := []struct {
		name string
		hops int
		xff  func(forged string) string // the header as the service receives it
	}{
		{"appending proxy", 1, func(forged string) string { return forged + ", 203.0.113.7" }},
		{"overwriting proxy", 1, func(string) string { return "203.0.113.7" }},
		{"two appending proxies", 2, func(forged string) string { return forged + ", 203.0.113.7, 10.0.0.5" }},
		{"no trusted proxy", 0, func(forged string) string { return forged }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			server := httpserver.New(httpserver.Config{Service: "test", TrustedProxyHops: c.hops}, slog.New(slog.NewTextHandler(io.Discard, nil)))
			limit := New(1.0/60, 2)
			var keys []string
			server.Engine.POST("/api/sesion", limit.Middleware(func(ctx *gin.Context) string {
				keys = append(keys, ClientIP(ctx))
				return ClientIP(ctx)
			}), func(ctx *gin.Context) { ctx.Status(204) })
			signIn := func(forged string) int {
				r := httptest.NewRequest("POST", "/api/sesion", nil)
				r.RemoteAddr = "192.0.2.1:5555"
				r.Header.Set("X-Forwarded-For", c.xff(forged))
				rec := httptest.NewRecorder()
				server.Engine.ServeHTTP(rec, r)
				return rec.Code
			}
			// A new forged address on every attempt: the burst of 2 still runs out.
			for i, forged := range []string{"198.51.100.1", "198.51.100.2", "198.51.100.3", "2001:db8::3"} {
				want := 204
				if i >= 2 {
					want = 429
				}
				if got := signIn(forged); got != want {
					t.Fatalf("attempt %d forging %s: %d, want %d", i+1, forged, got, want)
				}
			}
			// The address the proxy saw, or with no trusted proxy the connection's.
			wantKey := "203.0.113.7"
			if c.hops == 0 {
				wantKey = "192.0.2.1"
			}
			for i, k := range keys {
				if k != wantKey {
					t.Fatalf("attempt %d keyed by %q, want %s (all keys %q)", i+1, k, wantKey, keys)
				}
			}
		})
	}
}

func TestTooManyRoundsRetryAfterUp(t *testing.T) {
	for wait, want := range map[time.Duration]int{0: 1, 200 * time.Millisecond: 1, 6 * time.Second: 6, 6001 * time.Millisecond: 7} {
		if e := TooMany(wait); e.Status != 429 || e.RetryAfter != want || e.Code != "demasiadas_solicitudes" {
			t.Errorf("%v: %+v", wait, e)
		}
	}
}

// An IPv6 client is one /64 (what a provider hands one subscriber), an IPv4 client one
// address, written the same whichever way it arrived.
func TestAddressKeys(t *testing.T) {
	for address, want := range map[string]string{
		"203.0.113.7":                             "203.0.113.7",
		"::ffff:203.0.113.7":                      "203.0.113.7",
		"2001:db8:1:2::1":                         "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:ffff:ffff:ffff":        "2001:db8:1:2::/64",
		"2001:0db8:0001:0002:0000:0000:0000:0009": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":                         "2001:db8:1:3::/64",
		"fe80::1%eth0":                            "fe80::/64",
		"::1":                                     "::/64",
		"not an address":                          "not an address",
	} {
		if got := addressKey(address); got != want {
			t.Errorf("%s keyed as %q, want %q", address, got, want)
		}
	}
}

// Exhausted looks without taking: a key that never failed has room, one whose failures took
// every token has none until the bucket refills.
func TestExhaustedLooksWithoutTaking(t *testing.T) {
	ctx := context.Background()
	l := New(0.5, 2) // a token every 2 s, burst 2
	now := time.Unix(1_000_000, 0)
	l.SetClock(func() time.Time { return now })
	for i := 0; i < 3; i++ {
		if out, _ := l.Exhausted(ctx, "a"); out {
			t.Fatalf("look %d: a key never used is exhausted", i)
		}
	}
	l.Allow(ctx, "a")
	if out, _ := l.Exhausted(ctx, "a"); out {
		t.Fatal("one token left, but exhausted")
	}
	l.Allow(ctx, "a")
	if out, wait := l.Exhausted(ctx, "a"); !out || wait != 2*time.Second {
		t.Fatalf("no token left: exhausted=%v wait=%v, want true 2s", out, wait)
	}
	now = now.Add(2 * time.Second)
	if out, _ := l.Exhausted(ctx, "a"); out {
		t.Fatal("refilled, but exhausted")
	}
}
