package http

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/predictions/internal/reveal"
)

// PorPagina is the default page size of GET /api/apuestas; at most 100.
const PorPagina = 50

var (
	errPartido   = apierror.Invalid("Indicá el partido con ?partido=<número>.")
	errPagina    = apierror.Invalid("La página tiene que ser un número entero desde 1.")
	errPorPagina = apierror.Invalid("Las filas por página tienen que ser un número entero de 1 a 100.")
)

// MatchPredictionsHandlers serve the match page's predictions: GET /api/apuestas (a page of
// everyone's, by name, once the match is locked) and GET /api/apuestas/resumen (one's own, and
// everyone's distribution once locked).
type MatchPredictionsHandlers struct {
	Service *reveal.Service
}

// page: GET /api/apuestas?partido=&pagina=&por_pagina=.
func (h *MatchPredictionsHandlers) page(c *gin.Context) {
	partido, ok := intQuery(c, "partido", 0, 1, 1<<62)
	if !ok || partido == 0 {
		httpserver.Fail(c, errPartido)
		return
	}
	pagina, ok := intQuery(c, "pagina", 1, 1, 1<<31-1)
	if !ok {
		httpserver.Fail(c, errPagina)
		return
	}
	porPagina, ok := intQuery(c, "por_pagina", PorPagina, 1, 100)
	if !ok {
		httpserver.Fail(c, errPorPagina)
		return
	}
	claims, _ := session.FromContext(c)
	out, err := h.Service.Page(c.Request.Context(), claims, int64(partido), pagina, porPagina)
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// summary: GET /api/apuestas/resumen?partido=.
func (h *MatchPredictionsHandlers) summary(c *gin.Context) {
	partido, ok := intQuery(c, "partido", 0, 1, 1<<62)
	if !ok || partido == 0 {
		httpserver.Fail(c, errPartido)
		return
	}
	claims, _ := session.FromContext(c)
	out, err := h.Service.Summary(c.Request.Context(), claims, int64(partido))
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// intQuery reads an optional integer query parameter within [lo, hi].
func intQuery(c *gin.Context, name string, def, lo, hi int) (int, bool) {
	raw, present := c.GetQuery(name)
	if !present {
		return def, true
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, false
	}
	return n, true
}

// MatchRoutes mounts them; both need a session (identity comes from it: one's own prediction
// and row).
func MatchRoutes(r *gin.Engine, auth *session.Verifier, h *MatchPredictionsHandlers) {
	g := r.Group("/api/apuestas", auth.Required())
	g.GET("", h.page)
	g.GET("/resumen", h.summary)
}
