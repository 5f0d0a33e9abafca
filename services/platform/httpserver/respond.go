package httpserver

import (
	"log/slog"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/postgres"
)

// Fail answers with err as the JSON error body; unknown errors become a logged 500.
func Fail(c *gin.Context, err error) {
	e := apierror.From(err)
	if e == apierror.ErrInternal || e.Code == apierror.ErrInternal.Code {
		if postgres.IsUnavailable(err) {
			e = apierror.ErrUnavailable.Wrap(err)
		}
	}
	if e.Status >= 500 {
		Logger(c).Error("request failed", slog.String("error", err.Error()))
	} else if e.Unwrap() != nil {
		Logger(c).Info("request refused", slog.String("code", e.Code), slog.String("cause", e.Unwrap().Error()))
	}
	// An error is never cached, even when the handler had already set caching for its answer.
	c.Header("Cache-Control", defaultCacheControl)
	for k, v := range e.Headers() {
		c.Header(k, v[0])
	}
	c.AbortWithStatusJSON(e.Status, apierror.Body{Error: e.Code, Mensaje: e.Mensaje, RequestID: RequestID(c)})
}

// JSONBytes answers with an already encoded JSON body (a cached page) and its length. Without
// Content-Length, net/http sends a body larger than its 2 KiB buffer chunked, one more write
// to the socket per answer; with it, the headers and the body leave in two writes and the
// client needs no chunk decoding. Measured in docs/benchmarks.md (GET /api/posiciones).
func JSONBytes(c *gin.Context, status int, body []byte) {
	c.Writer.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
	c.Data(status, jsonContentType, body)
}

// jsonContentType is what gin's c.JSON sends.
const jsonContentType = "application/json; charset=utf-8"
