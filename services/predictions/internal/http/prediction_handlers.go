// Package http is the predictions service's HTTP surface.
package http

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/predictions/internal/predictions"
	"prode/predictions/internal/store"
)

// PredictionHandlers serve /api/jugadores/{email}/apuestas.
type PredictionHandlers struct {
	Service *predictions.Service
	Metrics *Metrics
	// WriteLimit limits each session's writes (POST, PUT); nil means no limit.
	WriteLimit *ratelimit.Limiter
}

// owner returns the session's claims when the path's e-mail is the session's.
func owner(c *gin.Context) (session.Claims, bool) {
	claims, _ := session.FromContext(c)
	if err := predictions.Owner(claims, c.Param("email")); err != nil {
		httpserver.Fail(c, err)
		return claims, false
	}
	return claims, true
}

func (h *PredictionHandlers) list(c *gin.Context) {
	claims, ok := owner(c)
	if !ok {
		return
	}
	apuestas, err := h.Service.OfPlayer(c.Request.Context(), claims)
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apuestas)
}

func (h *PredictionHandlers) create(c *gin.Context) {
	claims, ok := owner(c)
	if !ok {
		h.Metrics.Refused.WithLabelValues(predictions.ReasonOther).Inc()
		return
	}
	var in predictions.Entrada
	if err := httpserver.DecodeJSON(c, &in, httpserver.MaxBody); err != nil {
		h.refuse(c, err)
		return
	}
	a, created, err := h.Service.Save(c.Request.Context(), claims, in)
	if err != nil {
		h.refuse(c, err)
		return
	}
	status, kind := http.StatusOK, "updated"
	if created {
		status, kind = http.StatusCreated, "created"
	}
	h.Metrics.Saved.WithLabelValues(kind).Inc()
	c.JSON(status, a)
}

func (h *PredictionHandlers) update(c *gin.Context) {
	claims, ok := owner(c)
	if !ok {
		h.Metrics.Refused.WithLabelValues(predictions.ReasonOther).Inc()
		return
	}
	id, err := strconv.ParseInt(c.Param("apuesta"), 10, 64)
	if err != nil || id < 1 {
		h.refuse(c, apierror.NotFound("No encontramos esa jugada entre las tuyas."))
		return
	}
	var in predictions.Entrada
	if err := httpserver.DecodeJSON(c, &in, httpserver.MaxBody); err != nil {
		h.refuse(c, err)
		return
	}
	var a store.Apuesta
	if a, err = h.Service.Update(c.Request.Context(), claims, id, in); err != nil {
		h.refuse(c, err)
		return
	}
	h.Metrics.Saved.WithLabelValues("updated").Inc()
	c.JSON(http.StatusOK, a)
}

func (h *PredictionHandlers) refuse(c *gin.Context, err error) {
	h.Metrics.Refused.WithLabelValues(predictions.Reason(err)).Inc()
	httpserver.Fail(c, err)
}

// Routes mounts the routes; every one needs a session. The writes check only the token here
// (session.Signed): their statements guard on the session being open, one round trip fewer
// on the route of the pre-kick-off rush (predictions.Sessions). So a cookie ended with 'Salir'
// reaches the write limit, which is why it is kept per session, not per player: such a cookie
// spends its own allowance and never the owner's live session's.
func Routes(r *gin.Engine, auth *session.Verifier, h *PredictionHandlers) {
	signedIn := r.Group("/api", auth.Required())
	signedIn.GET("/jugadores/:email/apuestas", h.list)
	writes := r.Group("/api", auth.Signed(), h.WriteLimit.Middleware(ratelimit.PerSession))
	writes.POST("/jugadores/:email/apuestas", h.create)
	writes.PUT("/jugadores/:email/apuestas/:apuesta", h.update)
}
