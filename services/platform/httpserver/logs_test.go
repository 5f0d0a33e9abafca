package httpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// Every error body's request_id is in the access log line of that request (with its status),
// and no log line carries the request's cookie or a token, whatever the outcome.
func TestErrorRequestIDsAreLoggedAndSecretsAreNot(t *testing.T) {
	// The handlers run in this goroutine (do calls ServeHTTP), so the log needs no lock.
	var buf bytes.Buffer
	s := newLoggingTestServer(slog.New(slog.NewJSONHandler(&buf, nil)))
	const secret = "v1.eyJzaWQiOiJzZWNyZXQifQ.c2VjcmV0LW1hYy12YWx1ZQ"
	cookie := map[string]string{"Cookie": "prode_sesion=" + secret, "Authorization": "Bearer " + secret}
	cases := []struct {
		method, path, body string
		headers            map[string]string
		status             int
	}{
		{"POST", "/api/cosas/1", `{"n":`, cookie, 400},
		{"POST", "/api/cosas/1", `{"x":1}`, cookie, 400},
		{"POST", "/api/cosas/1", `{"n":1}`, map[string]string{"Cookie": "prode_sesion=" + secret, "Origin": "https://evil.example"}, 403},
		{"GET", "/api/nada?code=" + secret, "", cookie, 404},
		{"GET", "/api/panico", "", cookie, 500},
		{"POST", "/api/cosas/1", `{"n":1}`, cookie, 200},
	}
	for _, c := range cases {
		rec := do(s.Engine, c.method, c.path, c.body, c.headers)
		if rec.Code != c.status {
			t.Fatalf("%s %s: %d", c.method, c.path, rec.Code)
		}
		if c.status == 200 {
			continue
		}
		var body struct {
			RequestID string `json:"request_id"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		if body.RequestID == "" || rec.Header().Get("X-Request-Id") != body.RequestID {
			t.Fatalf("%s %s: request id %q, header %q", c.method, c.path, body.RequestID, rec.Header().Get("X-Request-Id"))
		}
		found := false
		for _, line := range strings.Split(buf.String(), "\n") {
			if strings.Contains(line, `"request_id":"`+body.RequestID+`"`) && strings.Contains(line, `"msg":"request"`) &&
				strings.Contains(line, fmt.Sprintf(`"status":%d`, c.status)) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s %s: request id %s not in an access log line with status %d:\n%s", c.method, c.path, body.RequestID, c.status, buf.String())
		}
	}
	logs := buf.String()
	for _, s := range []string{secret, "prode_sesion", "c2VjcmV0", "Cookie", "cookie", "Bearer"} {
		if strings.Contains(logs, s) {
			t.Errorf("the logs carry %q:\n%s", s, logs)
		}
	}
}
