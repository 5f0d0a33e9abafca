package ratelimit

import (
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

func TestBucketsRefillAndIdleKeysAreForgotten(t *testing.T) {
	l := New(1, 2) // 1/s, burst 2: a bucket is full again after 2 s; forgotten after a minute
	now := time.Unix(1_000_000, 0)
	l.SetClock(func() time.Time { return now })
	for i := 0; i < 2; i++ {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("request %d within the burst refused", i)
		}
	}
	if ok, wait := l.Allow("a"); ok || wait != time.Second {
		t.Fatalf("past the burst: ok=%v wait=%v", ok, wait)
	}
	// A refused request does not consume: after one second exactly one more is allowed.
	now = now.Add(time.Second)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("after a second: refused")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("two after a second: allowed")
	}
	for i := 0; i < 1000; i++ {
		l.Allow(fmt.Sprint("k", i))
	}
	if l.Len() != 1001 {
		t.Fatalf("len %d", l.Len())
	}
	now = now.Add(2 * time.Minute)
	l.Allow("b")
	if l.Len() != 1 {
		t.Fatalf("idle keys kept: %d", l.Len())
	}
}

func TestClientIPIsTheFirstForwardedHopElseTheRemoteAddress(t *testing.T) {
	for xff, want := range map[string]string{
		"":                        "192.0.2.1",
		"203.0.113.7":             "203.0.113.7",
		" 203.0.113.7 , 10.0.0.1": "203.0.113.7",
		"2001:db8::1":             "2001:db8::1",
		"not-an-ip, 203.0.113.7":  "192.0.2.1",
		"203.0.113.7:1234":        "192.0.2.1",
	} {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest("POST", "/", nil)
		c.Request.RemoteAddr = "192.0.2.1:5555"
		if xff != "" {
			c.Request.Header.Set("X-Forwarded-For", xff)
		}
		if got := ClientIP(c); got != want {
			t.Errorf("X-Forwarded-For %q: %q, want %q", xff, got, want)
		}
	}
}

func TestTooManyRoundsRetryAfterUp(t *testing.T) {
	for wait, want := range map[time.Duration]int{0: 1, 200 * time.Millisecond: 1, 6 * time.Second: 6, 6001 * time.Millisecond: 7} {
		if e := TooMany(wait); e.Status != 429 || e.RetryAfter != want || e.Code != "demasiadas_solicitudes" {
			t.Errorf("%v: %+v", wait, e)
		}
	}
}
