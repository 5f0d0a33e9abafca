package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/scoring/internal/grupos"
	"prode/scoring/internal/standings"
)

// MiembrosPorPagina is the default page size of GET /api/grupos/{id}/miembros: the largest page
// any list serves.
const MiembrosPorPagina = httpserver.MaxPorPagina

var (
	errGrupoID   = apierror.NotWhole("El grupo", 1)
	errJugadorID = apierror.NotWhole("El jugador", 1)
)

// GruposHandlers serve /api/grupos: the private leagues. Identity always comes from the
// session; a path names a league or a member, never who is asking.
type GruposHandlers struct {
	Service     *grupos.Service
	Tournaments Tournaments
	// WriteLimit limits each session's writes (create, join, rename, codes, remove); nil: none.
	WriteLimit *ratelimit.Limiter
	// Guesses limits each session's joins with an unknown code, so that codes cannot be guessed
	// at the write rate; nil: none.
	Guesses *ratelimit.Limiter
}

// The bodies of POST /api/grupos, PATCH /api/grupos/{id} and POST /api/grupos/unirse.
type (
	grupoEntrada struct {
		Nombre string `json:"nombre"`
		Torneo *int64 `json:"torneo"`
	}
	nombreEntrada struct {
		Nombre string `json:"nombre"`
	}
	unirseEntrada struct {
		Codigo string `json:"codigo"`
	}
)

// create: POST /api/grupos {nombre, torneo?} -> 201 the league, its creator owner and member.
func (h *GruposHandlers) create(c *gin.Context) {
	var in grupoEntrada
	if !httpserver.ReadJSON(c, &in) {
		return
	}
	var torneo int64
	if in.Torneo != nil {
		if *in.Torneo < 1 {
			httpserver.Fail(c, errTorneo)
			return
		}
		torneo = *in.Torneo
	}
	claims, _ := session.FromContext(c)
	g, err := h.Service.Create(c.Request.Context(), claims.PlayerID, torneo, in.Nombre)
	httpserver.Reply(c, http.StatusCreated, g, err)
}

// mine: GET /api/grupos?torneo= -> the player's leagues in that tournament (the current one by
// default).
func (h *GruposHandlers) mine(c *gin.Context) {
	torneo, ok := torneoQuery(c, h.Tournaments)
	if !ok {
		return
	}
	claims, _ := session.FromContext(c)
	list, err := h.Service.Mine(c.Request.Context(), claims.PlayerID, torneo)
	httpserver.Reply(c, http.StatusOK, list, err)
}

// get: GET /api/grupos/{id} (members only).
func (h *GruposHandlers) get(c *gin.Context) {
	if id, claims, ok := grupoRequest(c); ok {
		g, err := h.Service.Get(c.Request.Context(), id, claims.PlayerID)
		httpserver.Reply(c, http.StatusOK, g, err)
	}
}

// rename: PATCH /api/grupos/{id} {nombre} (owner only).
func (h *GruposHandlers) rename(c *gin.Context) {
	var in nombreEntrada
	if id, claims, ok := grupoRequest(c); ok && httpserver.ReadJSON(c, &in) {
		g, err := h.Service.Rename(c.Request.Context(), id, claims.PlayerID, in.Nombre)
		httpserver.Reply(c, http.StatusOK, g, err)
	}
}

// remove: DELETE /api/grupos/{id} (owner only) -> 204.
func (h *GruposHandlers) remove(c *gin.Context) {
	if id, claims, ok := grupoRequest(c); ok {
		httpserver.Reply(c, http.StatusNoContent, nil, h.Service.Delete(c.Request.Context(), id, claims.PlayerID))
	}
}

// newCode: POST /api/grupos/{id}/codigo (owner only) -> {codigo}; the old one stops working.
func (h *GruposHandlers) newCode(c *gin.Context) {
	if id, claims, ok := grupoRequest(c); ok {
		codigo, err := h.Service.NewCode(c.Request.Context(), id, claims.PlayerID)
		httpserver.Reply(c, http.StatusOK, gin.H{"codigo": codigo}, err)
	}
}

// revokeCode: DELETE /api/grupos/{id}/codigo (owner only) -> 204; no code works until a new one.
func (h *GruposHandlers) revokeCode(c *gin.Context) {
	if id, claims, ok := grupoRequest(c); ok {
		httpserver.Reply(c, http.StatusNoContent, nil, h.Service.RevokeCode(c.Request.Context(), id, claims.PlayerID))
	}
}

// invitation: GET /api/grupos/invitacion/{codigo} (anyone) -> what the link leads to.
func (h *GruposHandlers) invitation(c *gin.Context) {
	i, err := h.Service.Invitation(c.Request.Context(), c.Param("codigo"))
	httpserver.Reply(c, http.StatusOK, i, err)
}

// join: POST /api/grupos/unirse {codigo} -> 200 the league (already a member: the same). A
// session whose unknown codes used up its Guesses allowance is refused before the code is
// looked at, so that guessing stops there whatever the codes it tries next.
func (h *GruposHandlers) join(c *gin.Context) {
	var in unirseEntrada
	if !httpserver.ReadJSON(c, &in) {
		return
	}
	claims, _ := session.FromContext(c)
	if h.Guesses != nil {
		if out, wait := h.Guesses.Exhausted(c.Request.Context(), claims.SessionID); out {
			h.Service.GuessesExhausted()
			httpserver.Fail(c, ratelimit.TooMany(wait))
			return
		}
	}
	g, err := h.Service.Join(c.Request.Context(), in.Codigo, claims.PlayerID)
	if h.Guesses != nil && grupos.Reason(err) == "invitacion_invalida" {
		h.Guesses.Allow(c.Request.Context(), claims.SessionID)
	}
	httpserver.Reply(c, http.StatusOK, g, err)
}

// members: GET /api/grupos/{id}/miembros?pagina=&por_pagina= (members only).
func (h *GruposHandlers) members(c *gin.Context) {
	id, claims, ok := grupoRequest(c)
	if !ok {
		return
	}
	if pagina, porPagina, ok := httpserver.PageQuery(c, MiembrosPorPagina); ok {
		list, err := h.Service.Members(c.Request.Context(), id, claims.PlayerID, claims.SessionID, pagina, porPagina)
		httpserver.Reply(c, http.StatusOK, list, err)
	}
}

// removeMember: DELETE /api/grupos/{id}/miembros/{jugador} -> 204: the owner removes a member;
// a member with their own id leaves.
func (h *GruposHandlers) removeMember(c *gin.Context) {
	id, claims, ok := grupoRequest(c)
	if !ok {
		return
	}
	if jugador, ok := httpserver.PathID(c, "jugador", errJugadorID); ok {
		httpserver.Reply(c, http.StatusNoContent, nil, h.Service.Remove(c.Request.Context(), id, claims.PlayerID, jugador))
	}
}

// table: GET /api/grupos/{id}/posiciones?pagina=&por_pagina= (members only): the league's
// standings, pages like /api/posiciones.
func (h *GruposHandlers) table(c *gin.Context) {
	id, claims, ok := grupoRequest(c)
	if !ok {
		return
	}
	pagina, porPagina, ok := httpserver.PageQuery(c, standings.PorPagina)
	if !ok {
		return
	}
	body, err := h.Service.Table(c.Request.Context(), id, claims.PlayerID, claims.SessionID, pagina, porPagina)
	replyBytes(c, body, err)
}

// grupoRequest reads the league the path names and the session, whose player is always the one
// asking; on a bad id it answers 400 and says false.
func grupoRequest(c *gin.Context) (id int64, claims session.Claims, ok bool) {
	if id, ok = httpserver.PathID(c, "id", errGrupoID); !ok {
		return 0, claims, false
	}
	claims, _ = session.FromContext(c)
	return id, claims, true
}

// GruposRoutes mounts /api/grupos. Every route needs an open session (the invitation excepted:
// anyone with the link sees what it leads to); the writes also count against the session's
// write limit.
func GruposRoutes(r *gin.Engine, auth *session.Verifier, h *GruposHandlers) {
	r.GET("/api/grupos/invitacion/:codigo", h.invitation)
	reads := r.Group("/api/grupos", auth.Required())
	reads.GET("", h.mine)
	reads.GET("/:id", h.get)
	// A league's members and table check the session in the query that checks the membership
	// (store.GruposStore.Access, remembered by grupos.AccessCache): the token's signature only, here.
	signed := r.Group("/api/grupos", auth.Signed())
	signed.GET("/:id/miembros", h.members)
	signed.GET("/:id/posiciones", h.table)
	writes := r.Group("/api/grupos", auth.Required(), h.WriteLimit.Middleware(ratelimit.PerSession))
	writes.POST("", h.create)
	writes.POST("/unirse", h.join)
	// One league's writes, by what they change: the league, its invite code, its members.
	league := writes.Group("/:id")
	league.PATCH("", h.rename)
	league.DELETE("", h.remove)
	code := league.Group("/codigo")
	code.POST("", h.newCode)
	code.DELETE("", h.revokeCode)
	league.DELETE("/miembros/:jugador", h.removeMember)
}
