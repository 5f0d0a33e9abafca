package httpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func newTestServer() *Server {
	return newLoggingTestServer(slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// newLoggingTestServer is the test server logging to log: a route that decodes a JSON body
// (POST /api/cosas/:id) and one that panics (GET /api/panico).
func newLoggingTestServer(log *slog.Logger) *Server {
	s := New(Config{Service: "test", AllowedOrigins: []string{"https://prode.example"}}, log)
	s.Engine.POST("/api/cosas/:id", func(c *gin.Context) {
		var v struct {
			N *int `json:"n"`
		}
		if err := DecodeJSON(c, &v, MaxBody); err != nil {
			Fail(c, err)
			return
		}
		c.JSON(200, gin.H{"ok": true})
	})
	s.Engine.GET("/api/panico", func(c *gin.Context) { panic("boom") })
	return s
}

func do(h http.Handler, method, path, body string, headers map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "prode.local"
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestErrorsCarryCodeSpanishMessageAndRequestID(t *testing.T) {
	s := newTestServer()
	for name, c := range map[string]struct {
		method, path, body string
		headers            map[string]string
		status             int
		code               string
	}{
		"unknown route":     {"GET", "/api/nada", "", nil, 404, "no_encontrado"},
		"wrong method":      {"DELETE", "/api/cosas/1", "", nil, 405, "metodo_no_permitido"},
		"panic":             {"GET", "/api/panico", "", nil, 500, "error_interno"},
		"cross-site origin": {"POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Origin": "https://evil.example"}, 403, "origen_no_permitido"},
		"cross-site fetch":  {"POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "origen_no_permitido"},
		"not json":          {"POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Content-Type": "text/plain"}, 415, "tipo_no_soportado"},
		"wrong type":        {"POST", "/api/cosas/1", `{"n":"1"}`, nil, 400, "datos_invalidos"},
		"unknown field":     {"POST", "/api/cosas/1", `{"n":1,"x":2}`, nil, 400, "datos_invalidos"},
		"too large":         {"POST", "/api/cosas/1", `{"n":1,"` + strings.Repeat("x", MaxBody) + `":1}`, nil, 413, "cuerpo_demasiado_grande"},
		"trailing data":     {"POST", "/api/cosas/1", `{"n":1} []`, nil, 400, "datos_invalidos"},
	} {
		t.Run(name, func(t *testing.T) {
			rec := do(s.Engine, c.method, c.path, c.body, c.headers)
			var body map[string]string
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("not JSON: %s", rec.Body)
			}
			if rec.Code != c.status || body["error"] != c.code || body["mensaje"] == "" ||
				body["request_id"] == "" || body["request_id"] != rec.Header().Get("X-Request-Id") {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
		})
	}
	for name, origin := range map[string]string{"allowed": "https://prode.example", "none": ""} {
		if rec := do(s.Engine, "POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Origin": origin}); rec.Code != 200 {
			t.Errorf("%s origin refused: %d %s", name, rec.Code, rec.Body)
		}
	}
	// With PUBLIC_ORIGIN set, the request's own Host is no proof: the client chose it, and the
	// scheme and port must match too.
	for name, origin := range map[string]string{"the request's host": "http://prode.local", "plain http": "http://prode.example",
		"another port": "https://prode.example:8443", "a subdomain": "https://www.prode.example", "opaque": "null"} {
		if rec := do(s.Engine, "POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Origin": origin}); rec.Code != 403 {
			t.Errorf("%s origin (%s): %d %s, want 403", name, origin, rec.Code, rec.Body)
		}
	}
	// Without it, an Origin naming the request's own host passes.
	bare := New(Config{Service: "test"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	bare.Engine.POST("/api/cosas/:id", func(c *gin.Context) { c.Status(204) })
	if rec := do(bare.Engine, "POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Origin": "http://prode.local"}); rec.Code != 204 {
		t.Errorf("same host without PUBLIC_ORIGIN: %d %s", rec.Code, rec.Body)
	}
	if rec := do(bare.Engine, "POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Origin": "https://evil.example"}); rec.Code != 403 {
		t.Errorf("another host without PUBLIC_ORIGIN: %d %s", rec.Code, rec.Body)
	}
}

func TestMetricsPassPromlintAndCountByRoute(t *testing.T) {
	s := newTestServer()
	do(s.Engine, "POST", "/api/cosas/1", `{"n":1}`, nil)
	do(s.Engine, "POST", "/api/cosas/2", `{"n":1}`, nil)
	// promtool check metrics runs this same linter.
	if problems, err := testutil.GatherAndLint(s.Registry); err != nil || len(problems) > 0 {
		t.Fatalf("lint: %v %v", problems, err)
	}
	rec := httptest.NewRecorder()
	s.AdminHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	want := `prode_http_requests_total{method="POST",route="/api/cosas/:id",service="test",status="200"} 2`
	if !strings.Contains(rec.Body.String(), want) {
		t.Fatalf("metrics lack %s", want)
	}
}

// A probe's /readyz answers from the drain flag alone: it runs no check, so it never waits on
// a busy pool. /readyz?verbose reports each dependency, all checked at once: two checks that
// each wait for the other both pass (one after the other, the first would fail at the second's
// deadline).
func TestReadinessFailsOnlyWhileDrainingAndChecksOnlyWhenAsked(t *testing.T) {
	s := newTestServer()
	var checked atomic.Int32
	s.AddCheck("postgres", func(context.Context) error { checked.Add(1); return io.EOF })
	redisStarted, otherStarted := make(chan struct{}), make(chan struct{})
	waitFor := func(mine, other chan struct{}) Check {
		return func(ctx context.Context) error {
			close(mine)
			select {
			case <-other:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	s.AddCheck("redis", waitFor(redisStarted, otherStarted))
	s.AddCheck("otro", waitFor(otherStarted, redisStarted))
	readyz := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		s.AdminHandler().ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		return rec
	}

	if rec := readyz("/readyz"); rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"estado":"listo"}` || checked.Load() != 0 {
		t.Fatalf("probe: %d %s, %d checks run", rec.Code, rec.Body, checked.Load())
	}
	want := `{"dependencias":{"otro":"ok","postgres":"falla","redis":"ok"},"estado":"listo"}`
	if rec := readyz("/readyz?verbose"); rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != want {
		t.Fatalf("verbose: %d %s, want %s", rec.Code, rec.Body, want)
	}
	s.draining.Store(true)
	if rec := readyz("/readyz"); rec.Code != 503 || strings.TrimSpace(rec.Body.String()) != `{"estado":"cerrando"}` {
		t.Fatalf("draining: %d %s", rec.Code, rec.Body)
	}
	if rec := readyz("/healthz"); rec.Code != 200 {
		t.Fatalf("liveness while draining: %d", rec.Code)
	}
}
