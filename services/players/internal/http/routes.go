package http

import (
	"github.com/gin-gonic/gin"

	"prode/platform/ratelimit"
	"prode/platform/session"
)

// Routes mounts the players service's routes. dev is nil unless the dev provider is on.
func Routes(r *gin.Engine, auth *session.Verifier, sessions *SessionHandlers, players *PlayerHandlers, dev *DevHandlers) {
	r.GET("/api/sesion/proveedor", sessions.provider)
	signInLimit := sessions.SignInLimit.Middleware(ratelimit.ClientIP)
	r.POST("/api/sesion", signInLimit, sessions.signIn)
	r.GET("/api/sesion", auth.Required(), sessions.current)
	r.DELETE("/api/sesion", auth.Required(), sessions.signOut)
	r.GET("/api/jugadores", players.standings)
	r.POST("/api/jugadores", auth.Required(), players.register)
	if dev != nil {
		r.GET("/api/sesion/dev", dev.chooser)
		r.POST("/api/sesion/dev", signInLimit, dev.choose)
		r.GET("/api/sesion/dev/chooser.js", dev.script)
		r.GET("/api/sesion/dev/chooser.css", dev.style)
	}
}
