package httpserver

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/postgres"
)

// Fail answers with err as the JSON error body; unknown errors become a logged 500. A request
// whose client hung up (ClientGone) is no server error: it is counted as 499 and logged at Info,
// whatever the handler made of the error, so that a phone losing signal or a load generator
// stopping never fires the 5xx alert nor writes an ERROR line.
func Fail(c *gin.Context, err error) {
	e := apierror.From(err)
	switch {
	case e.Status >= 500 && ClientGone(c, err):
		e = apierror.ErrClientClosed.Wrap(err)
	case e.Code == apierror.ErrInternal.Code && postgres.IsUnavailable(err):
		e = apierror.ErrUnavailable.Wrap(err)
	}
	switch {
	case e.Status >= 500:
		Logger(c).Error("request failed", slog.String("error", err.Error()))
	case e.Status == apierror.StatusClientClosedRequest:
		Logger(c).Info("client closed request", slog.String("cause", err.Error()))
	case e.Unwrap() != nil:
		Logger(c).Info("request refused", slog.String("code", e.Code), slog.String("cause", e.Unwrap().Error()))
	}
	// An error is never cached, even when the handler had already set caching for its answer.
	c.Header("Cache-Control", defaultCacheControl)
	for k, v := range e.Headers() {
		c.Header(k, v[0])
	}
	c.AbortWithStatusJSON(e.Status, apierror.Body{Error: e.Code, Mensaje: e.Mensaje, RequestID: RequestID(c)})
}

// ClientGone reports whether err is the request's client hanging up: the request's own context
// was cancelled (net/http cancels it when the client closes the connection or resets the
// stream, and on nothing else while the handler runs) and err comes from that: context.Canceled,
// bare or wrapped (pgx, go-redis, our own fmt.Errorf), or the I/O timeout that a cancellation
// sets on a connection's deadline and that a library left as it was. A deadline is never a
// hang-up: context.DeadlineExceeded (a timeout of the server's own) stays a server error, and so
// does a context.Canceled of a context the server cancelled itself while the request's still runs.
func ClientGone(c *gin.Context, err error) bool {
	if c.Request == nil || !errors.Is(c.Request.Context().Err(), context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if errors.Is(err, context.Canceled) {
		return true
	}
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
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
