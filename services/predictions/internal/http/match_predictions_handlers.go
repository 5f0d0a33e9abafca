package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/predictions/internal/reveal"
)

// PorPagina is the default page size of GET /api/apuestas (at most httpserver.MaxPorPagina).
const PorPagina = 50

// MatchPredictionsHandlers serve the match page's predictions: GET /api/apuestas (a page of
// everyone's, by name, once the match is locked) and GET /api/apuestas/resumen (one's own, and
// everyone's distribution once locked).
type MatchPredictionsHandlers struct {
	Service *reveal.Service
}

// page: GET /api/apuestas?partido=&pagina=&por_pagina=.
func (h *MatchPredictionsHandlers) page(c *gin.Context) {
	partido, ok := httpserver.MatchQuery(c)
	if !ok {
		return
	}
	pagina, porPagina, ok := httpserver.PageQuery(c, PorPagina)
	if !ok {
		return
	}
	claims, _ := session.FromContext(c)
	out, err := h.Service.Page(c.Request.Context(), claims, partido, pagina, porPagina)
	httpserver.Reply(c, http.StatusOK, out, err)
}

// summary: GET /api/apuestas/resumen?partido=.
func (h *MatchPredictionsHandlers) summary(c *gin.Context) {
	partido, ok := httpserver.MatchQuery(c)
	if !ok {
		return
	}
	claims, _ := session.FromContext(c)
	out, err := h.Service.Summary(c.Request.Context(), claims, partido)
	httpserver.Reply(c, http.StatusOK, out, err)
}

// MatchRoutes mounts them; both need a session (identity comes from it: one's own prediction
// and row).
func MatchRoutes(r *gin.Engine, auth *session.Verifier, h *MatchPredictionsHandlers) {
	g := r.Group("/api/apuestas", auth.Required())
	g.GET("", h.page)
	g.GET("/resumen", h.summary)
}
