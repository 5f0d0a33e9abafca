// Package http is the scoring service's HTTP surface: the standings and the results.
package http

import (
	"context"
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

// Tournaments resolves the tournament a request names (standings.Service): 0 is the current one.
type Tournaments interface {
	Tournament(ctx context.Context, torneo int64) (id int64, actual bool, err error)
}

var errTorneo = apierror.NotWhole("El torneo", 1)

// list answers one page of a tournament's standings (anyone; ?torneo=, the current one by
// default; ?fecha=AAAA-MM-DD, that matchday's own table).
func (h *StandingsHandlers) list(c *gin.Context) {
	pagina, porPagina, ok := httpserver.PageQuery(c, standings.PorPagina)
	if !ok {
		return
	}
	torneo, ok := torneoQuery(c, h.Service)
	if !ok {
		return
	}
	body, err := h.Service.Page(c.Request.Context(), torneo, c.Query("fecha"), pagina, porPagina)
	replyBytes(c, body, err)
}

// matchdays answers a tournament's matchdays with their best players (anyone).
func (h *StandingsHandlers) matchdays(c *gin.Context) {
	if torneo, ok := torneoQuery(c, h.Service); ok {
		body, err := h.Service.Matchdays(c.Request.Context(), torneo)
		replyBytes(c, body, err)
	}
}

// mine answers the signed-in player's place in a tournament (after session.Required).
func (h *StandingsHandlers) mine(c *gin.Context) {
	claims, _ := session.FromContext(c)
	if torneo, ok := torneoQuery(c, h.Service); ok {
		m, err := h.Service.Player(c.Request.Context(), torneo, claims.PlayerID)
		httpserver.Reply(c, http.StatusOK, m, err)
	}
}

// replyBytes answers an already encoded page (httpserver.JSONBytes), or err.
func replyBytes(c *gin.Context, body []byte, err error) {
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	httpserver.JSONBytes(c, http.StatusOK, body)
}

// torneoQuery reads ?torneo= and resolves it (absent: the current tournament); on a bad or
// unknown tournament it answers the error and returns false.
func torneoQuery(c *gin.Context, ts Tournaments) (int64, bool) {
	raw, present := c.GetQuery("torneo")
	var asked int64
	if present {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n < 1 {
			httpserver.Fail(c, errTorneo)
			return 0, false
		}
		asked = n
	}
	torneo, _, err := ts.Tournament(c.Request.Context(), asked)
	if err != nil {
		httpserver.Fail(c, err)
		return 0, false
	}
	return torneo, true
}
