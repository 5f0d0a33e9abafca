package httpserver_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/postgres"
	"prode/platform/testenv"
)

// A client that hangs up in the middle of a request (a phone losing signal, a load generator
// stopping) is no server error (issue 18): the request is counted with status 499 and logged at
// Info as a client hang-up, never as a 5xx nor an ERROR line, so the error-rate alert stays
// quiet. A deadline of the server's own, or a context the server cancelled itself, is still a
// server error. On the real thing: the shared server (httpserver.Server.Run, its middleware and
// Fail) on loopback ports, handlers running a slow PostgreSQL query (pg_sleep) through the
// shared pool (postgres.Connect), and an HTTP client that cancels while the query runs.
func TestClientHangUpIsCounted499AndNotAnError(t *testing.T) {
	db := testenv.NewDB(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	pool, err := postgres.Connect(ctx, db.AdminURL(), 8)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)

	logs := &testenv.LockedBuffer{}
	apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
	s := httpserver.New(httpserver.Config{Service: "test", HTTPAddr: apiAddr, AdminAddr: adminAddr,
		ShutdownTimeout: 5 * time.Second}, slog.New(slog.NewJSONHandler(logs, nil)))
	// PostgreSQL goes on sleeping after a client's hang-up (nothing tells the backend before it
	// reads again); the test database is dropped WITH (FORCE) at the end.
	const sleep = "SELECT pg_sleep(30)"
	// The two ways handlers pass the request's context: c.Request.Context(), and c itself.
	s.Engine.GET("/api/lento", func(c *gin.Context) {
		if _, err := pool.Exec(c.Request.Context(), sleep); err != nil {
			httpserver.Fail(c, err)
			return
		}
		c.Status(http.StatusNoContent)
	})
	s.Engine.GET("/api/lento-fila", func(c *gin.Context) {
		var v string
		if err := pool.QueryRow(c, sleep+"::text").Scan(&v); err != nil {
			httpserver.Fail(c, fmt.Errorf("reading the slow row: %w", err))
			return
		}
		c.Status(http.StatusNoContent)
	})
	// A deadline of the server's own: a server error (PostgreSQL too slow: 503).
	s.Engine.GET("/api/plazo", func(c *gin.Context) {
		ctx, cancel := context.WithTimeout(c.Request.Context(), 200*time.Millisecond)
		defer cancel()
		if _, err := pool.Exec(ctx, sleep); err != nil {
			httpserver.Fail(c, err)
			return
		}
		c.Status(http.StatusNoContent)
	})
	// A context the server cancelled itself while the client waits: a server error too.
	s.Engine.GET("/api/propio", func(c *gin.Context) {
		ctx, cancel := context.WithCancel(c.Request.Context())
		time.AfterFunc(200*time.Millisecond, cancel)
		if _, err := pool.Exec(ctx, sleep); err != nil {
			httpserver.Fail(c, err)
			return
		}
		c.Status(http.StatusNoContent)
	})
	served := make(chan error, 1)
	go func() { served <- s.Run(ctx) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	testenv.WaitReady(t, "http://"+adminAddr+"/readyz")
	api := "http://" + apiAddr
	metrics := func() string { return get(t, "http://"+adminAddr+"/metrics") }

	// Hang up once the query runs in PostgreSQL, as a phone losing signal does.
	for path, query := range map[string]string{"/api/lento": sleep, "/api/lento-fila": sleep + "::text"} {
		id := "hangup" + strings.ReplaceAll(path, "/", "-")
		reqCtx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(reqCtx, "GET", api+path, nil)
		req.Header.Set("X-Request-Id", id)
		done := make(chan error, 1)
		go func() {
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				res.Body.Close()
				err = fmt.Errorf("answered %d", res.StatusCode)
			}
			done <- err
		}()
		waitForQuery(t, pool, query)
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: the client's request ended with %v, want its own cancellation", path, err)
		}
		// The handler sees the hang-up, its query is interrupted, and the request is counted.
		waitFor(t, path+" counted", func() bool {
			return strings.Contains(metrics(), `route="`+path+`"`)
		})
	}
	// The server's own deadline and cancellation stay server errors, received by the client.
	for path, want := range map[string]int{"/api/plazo": 503, "/api/propio": 500} {
		req, _ := http.NewRequest("GET", api+path, nil)
		req.Header.Set("X-Request-Id", "server"+strings.ReplaceAll(path, "/", "-"))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("%s: %d, want %d", path, res.StatusCode, want)
		}
	}

	m := metrics()
	for _, path := range []string{"/api/lento", "/api/lento-fila"} {
		if !strings.Contains(m, seriesOf(path, 499)+" 1") {
			t.Errorf("%s: no 499 counted once in the metrics:\n%s", path, grepLines(m, "prode_http_requests_total"))
		}
		for _, line := range strings.Split(m, "\n") {
			if strings.HasPrefix(line, "prode_http_requests_total{") && strings.Contains(line, `route="`+path+`"`) && strings.Contains(line, `status="5`) {
				t.Errorf("%s: a hang-up counted as a server error: %s", path, line)
			}
		}
	}
	for path, want := range map[string]int{"/api/plazo": 503, "/api/propio": 500} {
		if !strings.Contains(m, seriesOf(path, want)+" 1") {
			t.Errorf("%s: no %d counted:\n%s", path, want, grepLines(m, "prode_http_requests_total"))
		}
	}

	// The log: the hang-ups at Info (the access line with 499, and why), no ERROR line but the
	// two server errors'.
	all := logs.String()
	for _, id := range []string{"hangup-api-lento", "hangup-api-lento-fila"} {
		lines := grepLines(all, `"request_id":"`+id+`"`)
		if !strings.Contains(lines, `"level":"INFO","msg":"client closed request"`) || !strings.Contains(lines, `"status":499`) {
			t.Errorf("%s: no Info line for the hang-up with status 499:\n%s", id, lines)
		}
	}
	for _, line := range strings.Split(grepLines(all, `"level":"ERROR"`), "\n") {
		if line != "" && !strings.Contains(line, `"request_id":"server-api-`) {
			t.Errorf("an ERROR line that is no server error:\n%s", line)
		}
	}
	for _, id := range []string{"server-api-plazo", "server-api-propio"} {
		if !strings.Contains(grepLines(all, `"request_id":"`+id+`"`), `"level":"ERROR"`) {
			t.Errorf("%s: a server error without its ERROR line:\n%s", id, all)
		}
	}
}

// Which errors are a hang-up: only those of a request whose own context was cancelled, and
// never a deadline.
func TestClientGone(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	timeout := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	for _, c := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"cancelled request, context.Canceled", cancelled, context.Canceled, true},
		{"cancelled request, wrapped context.Canceled", cancelled, fmt.Errorf("query: %w", context.Canceled), true},
		{"cancelled request, wrapped in an apierror", cancelled, apierror.ErrUnavailable.Wrap(context.Canceled), true},
		{"cancelled request, an I/O timeout left by the cancellation", cancelled, fmt.Errorf("read: %w", timeout), true},
		{"cancelled request, but a deadline of the server's own", cancelled, fmt.Errorf("q: %w", context.DeadlineExceeded), false},
		{"cancelled request, but another error", cancelled, errors.New("syntax error"), false},
		{"running request, context.Canceled of the server's own", context.Background(), context.Canceled, false},
		{"running request, an I/O timeout", context.Background(), timeout, false},
		{"expired request", expired, context.DeadlineExceeded, false},
	} {
		gc, _ := gin.CreateTestContext(httptest.NewRecorder())
		gc.Request = httptest.NewRequest("GET", "/", nil).WithContext(c.ctx)
		if got := httpserver.ClientGone(gc, c.err); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func seriesOf(path string, status int) string {
	return fmt.Sprintf(`prode_http_requests_total{method="GET",route="%s",service="test",status="%d"}`, path, status)
}

func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitForQuery waits until PostgreSQL runs query.
func waitForQuery(t *testing.T, pool *pgxpool.Pool, query string) {
	t.Helper()
	waitFor(t, query+" running", func() bool {
		var running bool
		err := pool.QueryRow(context.Background(), `SELECT EXISTS (SELECT FROM pg_stat_activity
			WHERE pid <> pg_backend_pid() AND state = 'active' AND query = $1)`, query).Scan(&running)
		return err == nil && running
	})
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, still not: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func grepLines(text, substr string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, substr) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
