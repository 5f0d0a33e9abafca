package http

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/scoring/internal/tablero"
)

// FilasPorRango is the default of ?cantidad= on the ranges of rows: "ver 10 más".
const FilasPorRango = 10

var (
	errDesde    = apierror.NotWhole("La fila desde la que leer", 1)
	errCantidad = apierror.Invalid(fmt.Sprintf("La cantidad de filas tiene que ser un número entero de 1 a %d.", httpserver.MaxPorPagina))
	errVersion  = apierror.NotWhole("La versión", 1)
)

// TableroHandlers serve the around-me boards, the ranges of rows around them and the pins. The
// player is always the session's: pins are nobody else's to read or change.
type TableroHandlers struct {
	Service     *tablero.Service
	Tournaments Tournaments
	// WriteLimit limits each session's pin writes, as the other writes; nil: none.
	WriteLimit *ratelimit.Limiter
}

// board: GET /api/posiciones/tablero?torneo=&fecha= (signed in): the player's board of the
// tournament's table or of a matchday's.
func (h *TableroHandlers) board(c *gin.Context) {
	torneo, ok := torneoQuery(c, h.Tournaments)
	if !ok {
		return
	}
	claims, _ := session.FromContext(c)
	t, err := h.Service.General(c.Request.Context(), torneo, c.Query("fecha"), 0)
	h.answerBoard(c, t, err, claims.PlayerID)
}

// answerBoard answers the player's board of table t, unless finding t failed (err).
func (h *TableroHandlers) answerBoard(c *gin.Context, t tablero.Table, err error, jugador int64) {
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	b, err := h.Service.Board(c.Request.Context(), t, jugador)
	httpserver.Reply(c, http.StatusOK, b, err)
}

// answerRange answers cantidad rows of table t from fila desde on, unless finding t failed (err).
func (h *TableroHandlers) answerRange(c *gin.Context, t tablero.Table, err error, desde, cantidad int64) {
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	r, err := h.Service.Range(c.Request.Context(), t, desde, cantidad)
	httpserver.Reply(c, http.StatusOK, r, err)
}

// rows: GET /api/posiciones/filas?torneo=&fecha=&version=&desde=&cantidad= (anyone, as the
// table's pages): cantidad rows (10 by default) from fila desde on.
func (h *TableroHandlers) rows(c *gin.Context) {
	torneo, ok := torneoQuery(c, h.Tournaments)
	if !ok {
		return
	}
	desde, cantidad, version, ok := rangeQuery(c)
	if !ok {
		return
	}
	t, err := h.Service.General(c.Request.Context(), torneo, c.Query("fecha"), version)
	h.answerRange(c, t, err, desde, cantidad)
}

// leagueBoard: GET /api/grupos/{id}/tablero (members only): the player's board of the league's table.
func (h *TableroHandlers) leagueBoard(c *gin.Context) {
	id, claims, ok := grupoRequest(c)
	if !ok {
		return
	}
	t, err := h.Service.League(c.Request.Context(), id, claims.PlayerID, claims.SessionID, 0)
	h.answerBoard(c, t, err, claims.PlayerID)
}

// leagueRows: GET /api/grupos/{id}/filas?version=&desde=&cantidad= (members only).
func (h *TableroHandlers) leagueRows(c *gin.Context) {
	id, claims, ok := grupoRequest(c)
	if !ok {
		return
	}
	desde, cantidad, version, ok := rangeQuery(c)
	if !ok {
		return
	}
	t, err := h.Service.League(c.Request.Context(), id, claims.PlayerID, claims.SessionID, version)
	h.answerRange(c, t, err, desde, cantidad)
}

// pins: GET /api/posiciones/fijados (signed in): the players the player pinned.
func (h *TableroHandlers) pins(c *gin.Context) {
	claims, _ := session.FromContext(c)
	list, err := h.Service.Pins(c.Request.Context(), claims.PlayerID)
	httpserver.Reply(c, http.StatusOK, list, err)
}

// pin: PUT /api/posiciones/fijados/{jugador} -> 204: the player pins another (again: the same).
func (h *TableroHandlers) pin(c *gin.Context) {
	claims, _ := session.FromContext(c)
	if jugador, ok := httpserver.PathID(c, "jugador", errJugadorID); ok {
		httpserver.Reply(c, http.StatusNoContent, nil, h.Service.Pin(c.Request.Context(), claims.PlayerID, jugador))
	}
}

// unpin: DELETE /api/posiciones/fijados/{jugador} -> 204 (not pinned: the same).
func (h *TableroHandlers) unpin(c *gin.Context) {
	claims, _ := session.FromContext(c)
	if jugador, ok := httpserver.PathID(c, "jugador", errJugadorID); ok {
		httpserver.Reply(c, http.StatusNoContent, nil, h.Service.Unpin(c.Request.Context(), claims.PlayerID, jugador))
	}
}

// rangeQuery reads ?desde= (from 1; 1 when absent), ?cantidad= (1 to 100, FilasPorRango when
// absent) and ?version= (a snapshot an earlier answer gave; 0 when absent: the current one).
func rangeQuery(c *gin.Context) (desde, cantidad, version int64, ok bool) {
	d, ok := httpserver.IntQuery(c, "desde", 1, 1, 1<<31-1)
	if !ok {
		httpserver.Fail(c, errDesde)
		return 0, 0, 0, false
	}
	n, ok := httpserver.IntQuery(c, "cantidad", FilasPorRango, 1, httpserver.MaxPorPagina)
	if !ok {
		httpserver.Fail(c, errCantidad)
		return 0, 0, 0, false
	}
	if raw, present := c.GetQuery("version"); present {
		v, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || v < 1 {
			httpserver.Fail(c, errVersion)
			return 0, 0, 0, false
		}
		version = v
	}
	return int64(d), int64(n), version, true
}

// TableroRoutes mounts the boards, the ranges and the pins. A league's board and rows check the
// session in the query that checks the membership, as its table does (the token's signature
// only, here); pin writes count against the session's write limit.
func TableroRoutes(r *gin.Engine, auth *session.Verifier, h *TableroHandlers) {
	r.GET("/api/posiciones/filas", h.rows)
	r.GET("/api/posiciones/tablero", auth.Required(), h.board)
	r.GET("/api/posiciones/fijados", auth.Required(), h.pins)
	writes := r.Group("/api/posiciones/fijados", auth.Required(), h.WriteLimit.Middleware(ratelimit.PerSession))
	writes.PUT("/:jugador", h.pin)
	writes.DELETE("/:jugador", h.unpin)
	leagues := r.Group("/api/grupos", auth.Signed())
	leagues.GET("/:id/tablero", h.leagueBoard)
	leagues.GET("/:id/filas", h.leagueRows)
}
