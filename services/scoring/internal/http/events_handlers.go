package http

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/scoring/internal/live"
)

// EventsHandlers serve /api/eventos: the Server-Sent Events stream that tells open pages the
// standings moved (public, like /api/posiciones: no session).
type EventsHandlers struct {
	Hub *live.Hub
}

var errUltimo = apierror.NotWhole("El último evento", 0)

// stream hands the connection to the hub, which answers text/event-stream and writes the
// events: every held one newer than what the client has (Last-Event-ID, sent by a
// reconnecting browser, or ?ultimo=, the version the page shows; the larger), then each new
// one. Beyond the replica's streams limit it answers 503, and the page polls instead.
func (h *EventsHandlers) stream(c *gin.Context) {
	last, ok := lastEventID(c)
	if !ok {
		httpserver.Fail(c, errUltimo)
		return
	}
	if err := h.Hub.Reserve(); err != nil {
		httpserver.Fail(c, apierror.ErrUnavailable.Wrap(err))
		return
	}
	conn, _, err := c.Writer.Hijack()
	if err != nil { // HTTP/2, or a test recorder: no connection to take over
		h.Hub.Unreserve()
		httpserver.Fail(c, apierror.ErrUnavailable.Wrap(errors.Join(errors.New("live: cannot hijack the connection"), err)))
		return
	}
	h.Hub.Adopt(conn, live.Head(c.Writer.Header()), last)
}

// lastEventID is what the client has: the larger of Last-Event-ID and ?ultimo= (absent: 0).
// A Last-Event-ID that is not ours (no number) counts as 0, so that the client catches up
// rather than fails; a bad ?ultimo= is the page's error, a 400.
func lastEventID(c *gin.Context) (int64, bool) {
	var last int64
	if raw := c.GetHeader("Last-Event-ID"); raw != "" {
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil && n > 0 {
			last = n
		}
	}
	if raw, present := c.GetQuery("ultimo"); present {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n < 0 {
			return 0, false
		}
		last = max(last, n)
	}
	return last, true
}

var _ http.Hijacker = gin.ResponseWriter(nil) // gin's writer can hijack
