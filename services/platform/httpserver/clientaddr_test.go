package httpserver

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
)

// The client address is the X-Forwarded-For entry TrustedProxyHops from the right: what the
// client itself put in the header (to the left) never matters.
func TestClientAddressCountsTrustedHopsFromTheRight(t *testing.T) {
	const remote = "192.0.2.1" // the connection: the nearest proxy, or the client itself
	cases := []struct {
		name  string
		hops  int
		lines []string // X-Forwarded-For lines, in order
		want  string
	}{
		{"no header", 1, nil, remote},
		{"empty header", 1, []string{""}, remote},
		{"overwriting proxy", 1, []string{"203.0.113.7"}, "203.0.113.7"},
		{"appending proxy, client forged a hop", 1, []string{"198.51.100.66, 203.0.113.7"}, "203.0.113.7"},
		{"appending proxy, client forged several", 1, []string{"10.0.0.1,198.51.100.66 , 203.0.113.7"}, "203.0.113.7"},
		{"proxy appended a line of its own", 1, []string{"198.51.100.66", "203.0.113.7"}, "203.0.113.7"},
		{"two proxies (load balancer, ingress)", 2, []string{"198.51.100.66, 203.0.113.7, 10.0.0.5"}, "203.0.113.7"},
		{"two proxies, the outer one overwrites", 2, []string{"203.0.113.7, 10.0.0.5"}, "203.0.113.7"},
		{"fewer entries than hops", 2, []string{"203.0.113.7"}, "203.0.113.7"},
		{"no proxy trusted", 0, []string{"203.0.113.7"}, remote},
		{"no proxy trusted, forged", 0, []string{"198.51.100.66, 203.0.113.7"}, remote},
		{"IPv6", 1, []string{"2001:db8:0:0::1"}, "2001:db8::1"},
		{"IPv4-mapped IPv6", 1, []string{"::ffff:203.0.113.7"}, "203.0.113.7"},
		{"with a port", 1, []string{"203.0.113.7:41234"}, "203.0.113.7"},
		{"IPv6 with a port", 1, []string{"[2001:db8::1]:443"}, "2001:db8::1"},
		{"not an address", 1, []string{"203.0.113.7, unknown"}, remote},
		{"forged garbage to the left", 1, []string{"<script>, 203.0.113.7"}, "203.0.113.7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = remote + ":5555"
			for _, line := range c.lines {
				r.Header.Add("X-Forwarded-For", line)
			}
			if got := clientAddress(r, c.hops); got != c.want {
				t.Errorf("hops %d, X-Forwarded-For %q: %q, want %q", c.hops, c.lines, got, c.want)
			}
		})
	}
}

// The server works the address out with its configured hops; handlers read it with
// ClientAddress, and outside a server's engine ClientAddress is the connection's address.
func TestServerGivesHandlersTheClientAddress(t *testing.T) {
	for hops, want := range map[int]string{0: "192.0.2.1", 1: "203.0.113.7"} {
		s := New(Config{Service: "test", TrustedProxyHops: hops}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		s.Engine.GET("/api/quien", func(c *gin.Context) { c.String(200, ClientAddress(c)) })
		rec := do(s.Engine, "GET", "/api/quien", "", map[string]string{"X-Forwarded-For": "198.51.100.66, 203.0.113.7"})
		if rec.Body.String() != want {
			t.Errorf("hops %d: %q, want %q", hops, rec.Body, want)
		}
	}
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("GET", "/", nil)
	c.Request.RemoteAddr = "192.0.2.9:1234"
	c.Request.Header.Set("X-Forwarded-For", "203.0.113.7")
	if got := ClientAddress(c); got != "192.0.2.9" {
		t.Errorf("outside a server: %q, want the connection's address", got)
	}
}
