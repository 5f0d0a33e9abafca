package httpserver_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"prode/platform/httpserver"
	"prode/platform/testenv"
)

// gin's trailing-slash redirect puts X-Forwarded-Prefix in front of its Location; the server
// as it runs (Server.Run) never lets a client's header choose where it redirects.
func TestRedirectsIgnoreXForwardedPrefix(t *testing.T) {
	apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
	s := httpserver.New(httpserver.Config{Service: "test", HTTPAddr: apiAddr, AdminAddr: adminAddr,
		ShutdownTimeout: time.Second}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	s.Engine.GET("/api/partidos/:id", func(c *gin.Context) { c.Status(http.StatusNoContent) })
	s.Engine.POST("/api/cosas", func(c *gin.Context) { c.Status(http.StatusNoContent) })
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})

	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	redirect := func(method, path, prefix string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, "http://"+apiAddr+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if prefix != "" {
			req.Header.Set("X-Forwarded-Prefix", prefix)
		}
		var res *http.Response
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if res, err = client.Do(req); err == nil || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("Location")
	}
	for _, prefix := range []string{"", "//evil.example", "/otro", "/", "https://evil.example/x", "/a/../..//evil"} {
		if status, location := redirect("GET", "/api/partidos/3/", prefix); status != http.StatusMovedPermanently || location != "/api/partidos/3" {
			t.Errorf("GET /api/partidos/3/ with X-Forwarded-Prefix %q: %d Location %q, want 301 /api/partidos/3", prefix, status, location)
		}
		if status, location := redirect("POST", "/api/cosas/", prefix); status != http.StatusTemporaryRedirect || location != "/api/cosas" {
			t.Errorf("POST /api/cosas/ with X-Forwarded-Prefix %q: %d Location %q, want 307 /api/cosas", prefix, status, location)
		}
	}
}
