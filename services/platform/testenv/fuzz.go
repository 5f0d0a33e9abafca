package testenv

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
)

// DecodeBody runs httpserver.DecodeJSON on body as a handler would (Content-Type
// application/json), for fuzz targets of request decoders.
func DecodeBody(body []byte, v any, limit int64) error {
	gin.SetMode(gin.ReleaseMode)
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("POST", "/", bytes.NewReader(body))
	c.Request.Header.Set("Content-Type", "application/json")
	return httpserver.DecodeJSON(c, v, limit)
}

// ClientError fails the test unless err is an *apierror.Error with a 4xx status and a
// Spanish message: a bad request must never become a 5xx.
func ClientError(t testing.TB, err error, input []byte) {
	t.Helper()
	var e *apierror.Error
	if !errors.As(err, &e) {
		t.Fatalf("input %q: error %T %v is not an *apierror.Error", input, err, err)
	}
	if e.Status < 400 || e.Status > 499 || e.Code == "" || e.Mensaje == "" {
		t.Fatalf("input %q: error %+v is not a 4xx with a code and a message", input, e)
	}
}
