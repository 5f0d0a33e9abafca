// Package http is the players service's HTTP surface.
package http

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/players/internal/players"
)

// Provider says how players sign in.
type Provider struct {
	Modo     string `json:"modo"` // "google" or "dev"
	ClientID string `json:"client_id"`
}

// SessionHandlers serve /api/sesion.
type SessionHandlers struct {
	Service      *players.Service
	Provider     Provider
	SecureCookie bool
	SignIns      *prometheus.CounterVec
	// SignInLimit limits sign-in attempts (POST /api/sesion and /api/sesion/dev) per client
	// address; nil means no limit.
	SignInLimit *ratelimit.Limiter
}

// sesionEntrada is the body of POST /api/sesion.
type sesionEntrada struct {
	Code string `json:"code"`
}

// decodeSesion reads and checks the sign-in body; its errors are 4xx *apierror.Error.
func decodeSesion(c *gin.Context) (sesionEntrada, error) {
	var body sesionEntrada
	if err := httpserver.DecodeJSON(c, &body, httpserver.MaxBody); err != nil {
		return body, err
	}
	if body.Code == "" || len(body.Code) > 4096 {
		return body, apierror.Invalid("Falta el código de ingreso.")
	}
	return body, nil
}

func (h *SessionHandlers) provider(c *gin.Context) { c.JSON(http.StatusOK, h.Provider) }

func (h *SessionHandlers) signIn(c *gin.Context) {
	body, err := decodeSesion(c)
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	jugador, token, expires, err := h.Service.SignIn(c.Request.Context(), body.Code)
	if err != nil {
		h.SignIns.WithLabelValues(h.Provider.Modo, "refused").Inc()
		httpserver.Fail(c, err)
		return
	}
	h.SignIns.WithLabelValues(h.Provider.Modo, "ok").Inc()
	h.setCookie(c, token, expires)
	c.JSON(http.StatusOK, jugador)
}

// current answers the signed-in player, and slides the session while it is in use (the web
// app asks on every load): a renewed session comes with a new cookie. A renewal that fails
// leaves the session as it was, which is no reason to fail the answer.
func (h *SessionHandlers) current(c *gin.Context) {
	claims, _ := session.FromContext(c)
	jugador, err := h.Service.Current(c.Request.Context(), claims)
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	token, expires, err := h.Service.Renew(c.Request.Context(), claims)
	switch {
	case err != nil:
		httpserver.Logger(c).Warn("session not renewed", slog.String("error", err.Error()))
	case token != "":
		h.setCookie(c, token, expires)
	}
	c.JSON(http.StatusOK, jugador)
}

func (h *SessionHandlers) signOut(c *gin.Context) {
	claims, _ := session.FromContext(c)
	if err := h.Service.SignOut(c.Request.Context(), claims); err != nil {
		httpserver.Fail(c, err)
		return
	}
	h.setCookie(c, "", time.Unix(0, 0))
	c.Status(http.StatusNoContent)
}

func (h *SessionHandlers) setCookie(c *gin.Context, token string, expires time.Time) {
	maxAge := int(time.Until(expires).Seconds())
	if token == "" {
		maxAge = -1
	}
	http.SetCookie(c.Writer, &http.Cookie{
		Name: session.CookieName, Value: token, Path: "/", Expires: expires, MaxAge: maxAge,
		HttpOnly: true, Secure: h.SecureCookie, SameSite: http.SameSiteLaxMode,
	})
}
