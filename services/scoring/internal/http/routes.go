package http

import (
	"github.com/gin-gonic/gin"

	"prode/platform/session"
)

// Routes mounts scoring's routes.
func Routes(r *gin.Engine, auth *session.Verifier, s *StandingsHandlers, res *ResultsHandlers, ev *EventsHandlers) {
	r.GET("/api/posiciones", s.list)
	r.GET("/api/posiciones/yo", auth.Required(), s.mine)
	r.GET("/api/posiciones/fechas", s.matchdays)
	r.GET("/api/resultados", auth.Optional(), res.list)
	r.GET("/api/eventos", ev.stream)
}
