package http

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
)

// write is the end of every write route, a prediction's and a bonus answer's: it reads the body
// into an In and hands it to save, then answers what save saved (created: with the status
// created; updated: 200) or the refusal. Either is counted in m: saved by kind, refused by
// reason, a bad body included.
func write[In, Out any](c *gin.Context, m *Metrics, created int, save func(ctx context.Context, in In) (Out, bool, error)) {
	var in In
	if err := httpserver.DecodeJSON(c, &in, httpserver.MaxBody); err != nil {
		m.refuse(c, err)
		return
	}
	out, isNew, err := save(c.Request.Context(), in)
	if err != nil {
		m.refuse(c, err)
		return
	}
	status, kind := http.StatusOK, "updated"
	if isNew {
		status, kind = created, "created"
	}
	m.Saved.WithLabelValues(kind).Inc()
	c.JSON(status, out)
}

// refuse answers err and counts it by its reason: the answer's code, "error" for a failure
// that is no refusal.
func (m *Metrics) refuse(c *gin.Context, err error) {
	reason := "error"
	var e *apierror.Error
	if errors.As(err, &e) {
		reason = e.Code
	}
	m.Refused.WithLabelValues(reason).Inc()
	httpserver.Fail(c, err)
}
