// Package http is the predictions service's HTTP surface.
package http

import (
	"context"
	"net/http"

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

var errApuesta = apierror.NotFound("No encontramos esa jugada entre las tuyas.")

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
	if claims, ok := owner(c); ok {
		apuestas, err := h.Service.OfPlayer(c.Request.Context(), claims)
		httpserver.Reply(c, http.StatusOK, apuestas, err)
	}
}

func (h *PredictionHandlers) create(c *gin.Context) {
	claims, ok := owner(c)
	if !ok {
		h.Metrics.Refused.WithLabelValues(predictions.ReasonOther).Inc()
		return
	}
	write(c, h.Metrics, http.StatusCreated, func(ctx context.Context, in predictions.Entrada) (store.Apuesta, bool, error) {
		return h.Service.Save(ctx, claims, in)
	})
}

func (h *PredictionHandlers) update(c *gin.Context) {
	claims, ok := owner(c)
	if !ok {
		h.Metrics.Refused.WithLabelValues(predictions.ReasonOther).Inc()
		return
	}
	id, ok := httpserver.PathID(c, "apuesta", errApuesta)
	if !ok {
		h.Metrics.Refused.WithLabelValues(predictions.ReasonNotFound).Inc()
		return
	}
	write(c, h.Metrics, http.StatusOK, func(ctx context.Context, in predictions.Entrada) (store.Apuesta, bool, error) {
		a, err := h.Service.Update(ctx, claims, id, in)
		return a, false, err
	})
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
