package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/players/internal/players"
)

// PlayerHandlers serve /api/jugadores.
type PlayerHandlers struct {
	Service *players.Service
}

// standings: the specification read the standings at GET /api/jugadores; they are scoring's
// now (DESIGN.md section 8), so old clients are sent there.
func (h *PlayerHandlers) standings(c *gin.Context) {
	c.Redirect(http.StatusPermanentRedirect, "/api/posiciones")
}

// jugadorEntrada is the body of POST /api/jugadores.
type jugadorEntrada struct {
	Nombre string `json:"nombre"`
	Email  string `json:"email"`
}

func (h *PlayerHandlers) register(c *gin.Context) {
	var body jugadorEntrada
	if !httpserver.ReadJSON(c, &body) {
		return
	}
	claims, _ := session.FromContext(c)
	jugador, err := h.Service.Register(c.Request.Context(), claims, body.Nombre, body.Email)
	httpserver.Reply(c, http.StatusOK, jugador, err)
}
