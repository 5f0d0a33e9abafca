package httpserver

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
)

// A route written with the handler helpers, as the services write theirs: PUT
// /api/cosas/:id {n} answers {id, n}; n 0 answers 204, n 13 is refused by the work itself, n
// 500 fails it.
func helpersEngine() http.Handler {
	s := New(Config{Service: "test"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	errCosa := apierror.NotFound("No existe esa cosa.")
	errTrece := apierror.Conflict("trece", "El 13 no.")
	s.Engine.PUT("/api/cosas/:id", func(c *gin.Context) {
		id, ok := PathID(c, "id", errCosa)
		if !ok {
			return
		}
		var in struct {
			N int `json:"n"`
		}
		if !ReadJSON(c, &in) {
			return
		}
		switch in.N {
		case 0:
			Reply(c, http.StatusNoContent, nil, nil)
		case 13:
			Reply(c, http.StatusOK, gin.H{"id": id}, errTrece)
		case 500:
			Reply(c, http.StatusOK, gin.H{"id": id}, errors.New("dial tcp 10.0.0.5:5432: connection refused"))
		default:
			Reply(c, http.StatusOK, gin.H{"id": id, "n": in.N}, nil)
		}
	})
	return s.Handler()
}

// PathID answers the route's own error for an id that is not a positive integer, ReadJSON the
// decoder's for a bad body, before the work runs; Reply answers the work's value, no body for
// nil, or its error in the contract's shape (an unknown one a 500 that does not tell it).
func TestHandlerHelpersAnswerForTheHandler(t *testing.T) {
	h := helpersEngine()
	for _, c := range []struct {
		path, body string
		status     int
		want       string // the body, or the error code
	}{
		{"/api/cosas/7", `{"n": 2}`, 200, `{"id":7,"n":2}`},
		{"/api/cosas/7", `{"n": 0}`, 204, ``},
		{"/api/cosas/7", `{"n": 13}`, 409, "trece"},
		{"/api/cosas/7", `{"n": 500}`, 500, "error_interno"},
		{"/api/cosas/0", `{"n": 2}`, 404, "no_encontrado"},
		{"/api/cosas/-1", `{"n": 2}`, 404, "no_encontrado"},
		{"/api/cosas/x", `{"n": 2}`, 404, "no_encontrado"},
		{"/api/cosas/9223372036854775808", `{"n": 2}`, 404, "no_encontrado"},
		{"/api/cosas/7", `{"n": "2"}`, 400, "datos_invalidos"},
		{"/api/cosas/7", `{"n": 2, "m": 1}`, 400, "datos_invalidos"},
		{"/api/cosas/x", `{"n": "2"}`, 404, "no_encontrado"},
	} {
		req := httptest.NewRequest(http.MethodPut, c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		got := rec.Body.String()
		if strings.Contains(got, "10.0.0.5") {
			t.Errorf("PUT %s %s: the answer tells the error: %s", c.path, c.body, got)
		}
		if c.status >= 400 {
			var body apierror.Body
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Errorf("PUT %s %s: %d %s, not an error body: %v", c.path, c.body, rec.Code, got, err)
				continue
			}
			got = body.Error
		}
		if rec.Code != c.status || got != c.want {
			t.Errorf("PUT %s %s: %d %s, want %d %s", c.path, c.body, rec.Code, got, c.status, c.want)
		}
	}
}
