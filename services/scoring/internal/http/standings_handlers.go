// Package http is the scoring service's HTTP surface: the standings and the results.
package http

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/scoring/internal/standings"
)

// StandingsHandlers serve /api/posiciones and /api/posiciones/yo.
type StandingsHandlers struct {
	Service *standings.Service
}

var (
	errPagina    = apierror.Invalid("La página tiene que ser un número entero desde 1.")
	errPorPagina = apierror.Invalid("Las filas por página tienen que ser un número entero de 1 a 100.")
)

// list answers one page of the standings (anyone).
func (h *StandingsHandlers) list(c *gin.Context) {
	pagina, ok := intQuery(c, "pagina", 1, 1, 1<<31-1)
	if !ok {
		httpserver.Fail(c, errPagina)
		return
	}
	porPagina, ok := intQuery(c, "por_pagina", standings.PorPagina, 1, 100)
	if !ok {
		httpserver.Fail(c, errPorPagina)
		return
	}
	body, err := h.Service.Page(c.Request.Context(), pagina, porPagina)
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	httpserver.JSONBytes(c, http.StatusOK, body)
}

// mine answers the signed-in player's place (after session.Required).
func (h *StandingsHandlers) mine(c *gin.Context) {
	claims, _ := session.FromContext(c)
	m, err := h.Service.Player(c.Request.Context(), claims.PlayerID)
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, m)
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
