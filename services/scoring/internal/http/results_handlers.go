package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/scoring/internal/results"
)

// ResultsHandlers serve /api/resultados.
type ResultsHandlers struct {
	Service     *results.Service
	Tournaments Tournaments
}

// list answers a tournament's finished matches (?torneo=, the current one by default); signed in (session.Optional), with the player's
// prediction and points.
func (h *ResultsHandlers) list(c *gin.Context) {
	var player int64
	if claims, ok := session.FromContext(c); ok {
		player = claims.PlayerID
	}
	if torneo, ok := torneoQuery(c, h.Tournaments); ok {
		list, err := h.Service.List(c.Request.Context(), torneo, player)
		httpserver.Reply(c, http.StatusOK, list, err)
	}
}
