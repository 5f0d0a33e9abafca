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
	Service *results.Service
}

// list answers the finished matches; signed in (session.Optional), with the player's
// prediction and points.
func (h *ResultsHandlers) list(c *gin.Context) {
	var player int64
	if claims, ok := session.FromContext(c); ok {
		player = claims.PlayerID
	}
	list, err := h.Service.List(c.Request.Context(), player)
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, list)
}
