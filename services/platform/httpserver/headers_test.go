package httpserver

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gin-gonic/gin"
)

// Every kind of answer carries each security header exactly once, and no-store unless the
// handler chose its own caching; an error is never cached; a handler's own CSP is the only one.
func TestEveryAnswerCarriesTheSecurityHeaders(t *testing.T) {
	s := newTestServer()
	s.Engine.GET("/api/cacheable", func(c *gin.Context) {
		c.Header("Cache-Control", "no-cache")
		c.Data(200, "text/css; charset=utf-8", []byte("p{}"))
	})
	s.Engine.GET("/api/cacheable-then-fails", func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=60")
		Fail(c, http.ErrAbortHandler)
	})
	s.Engine.GET("/api/page", func(c *gin.Context) {
		c.Header("Content-Security-Policy", "default-src 'none'")
		c.Data(200, "text/html; charset=utf-8", []byte("<p>hola"))
	})
	cases := []struct {
		name, method, path, body string
		headers                  map[string]string
		status                   int
		cacheControl, csp        string
	}{
		{"JSON answer", "POST", "/api/cosas/1", `{"n":1}`, nil, 200, "no-store", ""},
		{"bad body", "POST", "/api/cosas/1", `{"n":`, nil, 400, "no-store", ""},
		{"cross-site", "POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Origin": "https://evil.example"}, 403, "no-store", ""},
		{"gin's 404", "GET", "/api/nada", "", nil, 404, "no-store", ""},
		{"gin's 405", "DELETE", "/api/cosas/1", "", nil, 405, "no-store", ""},
		{"panic", "GET", "/api/panico", "", nil, 500, "no-store", ""},
		{"handler's own caching", "GET", "/api/cacheable", "", nil, 200, "no-cache", ""},
		{"error after caching was set", "GET", "/api/cacheable-then-fails", "", nil, 500, "no-store", ""},
		{"handler's own CSP", "GET", "/api/page", "", nil, 200, "no-store", "default-src 'none'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := do(s.Engine, c.method, c.path, c.body, c.headers).Result()
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d", res.StatusCode, c.status)
			}
			for name, want := range securityHeaderValues {
				if got := res.Header.Values(name); len(got) != 1 || got[0] != want {
					t.Errorf("%s: %q, want exactly [%q]", name, got, want)
				}
			}
			if got := res.Header.Values("Cache-Control"); len(got) != 1 || got[0] != c.cacheControl {
				t.Errorf("Cache-Control: %q, want exactly [%q]", got, c.cacheControl)
			}
			csp := res.Header.Values("Content-Security-Policy")
			if (c.csp == "" && len(csp) != 0) || (c.csp != "" && (len(csp) != 1 || csp[0] != c.csp)) {
				t.Errorf("Content-Security-Policy: %q, want %q", csp, c.csp)
			}
		})
	}
}

// The services' headers are nginx's: every add_header of docker/nginx-web.conf (the web app)
// and dev/nginx-routes.sh (the local nginx's API locations) but the CSP and Cache-Control, with
// the same value. Behind the local nginx a user gets nginx's values, behind the ingress ours;
// this keeps the two from drifting apart.
func TestSecurityHeadersAreNginxs(t *testing.T) {
	addHeader := regexp.MustCompile(`add_header\s+([A-Za-z-]+)\s+"([^"]*)"`)
	for _, file := range []string{"docker/nginx-web.conf", "dev/nginx-routes.sh"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", file))
		if err != nil {
			t.Fatalf("%s (the tests run in services/platform/httpserver of the repository): %v", file, err)
		}
		seen := map[string]bool{}
		for _, m := range addHeader.FindAllStringSubmatch(string(data), -1) {
			name, value := http.CanonicalHeaderKey(m[1]), m[2]
			if name == "Content-Security-Policy" || name == "Cache-Control" {
				continue
			}
			seen[name] = true
			if want, ok := securityHeaderValues[name]; !ok {
				t.Errorf("%s adds %s: %q, which the services do not send", file, name, value)
			} else if value != want {
				t.Errorf("%s: %s %q, the services send %q", file, name, value, want)
			}
		}
		for name := range securityHeaderValues {
			if !seen[name] {
				t.Errorf("%s does not add %s", file, name)
			}
		}
	}
}
