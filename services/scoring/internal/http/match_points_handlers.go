package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/scoring/internal/matchpoints"
)

// PuntosPorPagina is the default page size of GET /api/puntos (at most httpserver.MaxPorPagina).
const PuntosPorPagina = 50

var errPuntos = apierror.Invalid("Los puntos tienen que ser un número entero de 0 a 10.")

// MatchPointsHandlers serve GET /api/puntos: who scored what in a finished match.
type MatchPointsHandlers struct {
	Service *matchpoints.Service
}

// page: GET /api/puntos?partido=&puntos=&pagina=&por_pagina= (after session.Required: the
// player's own row and points come from the session).
func (h *MatchPointsHandlers) page(c *gin.Context) {
	partido, ok := httpserver.MatchQuery(c)
	if !ok {
		return
	}
	var puntos *int
	if _, present := c.GetQuery("puntos"); present {
		n, ok := httpserver.IntQuery(c, "puntos", 0, 0, 10)
		if !ok {
			httpserver.Fail(c, errPuntos)
			return
		}
		puntos = &n
	}
	pagina, porPagina, ok := httpserver.PageQuery(c, PuntosPorPagina)
	if !ok {
		return
	}
	claims, _ := session.FromContext(c)
	out, err := h.Service.Page(c.Request.Context(), claims, partido, puntos, pagina, porPagina)
	httpserver.Reply(c, http.StatusOK, out, err)
}

// MatchPointsRoutes mounts GET /api/puntos, for signed-in players (it names everyone's
// predictions, as GET /api/apuestas does).
func MatchPointsRoutes(r *gin.Engine, auth *session.Verifier, h *MatchPointsHandlers) {
	r.GET("/api/puntos", auth.Required(), h.page)
}
