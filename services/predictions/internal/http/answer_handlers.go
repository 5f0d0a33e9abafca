package http

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/predictions/internal/bonus"
	"prode/predictions/internal/store"
)

// AnswerHandlers serve the bonus questions: /api/preguntas.
type AnswerHandlers struct {
	Service *bonus.Service
	Metrics *Metrics
	// WriteLimit is the predictions' per-session write limit: answers spend the same allowance.
	WriteLimit *ratelimit.Limiter
}

var (
	errTorneo   = apierror.NotWhole("El torneo", 1)
	errPregunta = apierror.NotFound("Esa pregunta no existe.")
)

// list: GET /api/preguntas?torneo=.
func (h *AnswerHandlers) list(c *gin.Context) {
	torneo, ok := httpserver.IntQuery(c, "torneo", 0, 1, 1<<53)
	if !ok {
		httpserver.Fail(c, errTorneo)
		return
	}
	claims, _ := session.FromContext(c) // signed out: PlayerID 0, no own answers
	out, err := h.Service.Questions(c.Request.Context(), claims, int64(torneo))
	httpserver.Reply(c, http.StatusOK, out, err)
}

// answer: PUT /api/preguntas/:id/respuesta, the session's player's own answer.
func (h *AnswerHandlers) answer(c *gin.Context) {
	pregunta, ok := httpserver.PathID(c, "id", errPregunta)
	if !ok {
		h.Metrics.Refused.WithLabelValues(bonus.ReasonNotFound).Inc()
		return
	}
	claims, _ := session.FromContext(c)
	write(c, h.Metrics, http.StatusOK, func(ctx context.Context, in bonus.Entrada) (store.Respuesta, bool, error) {
		return h.Service.Answer(ctx, claims, pregunta, in)
	})
}

// counts: GET /api/preguntas/:id/respuestas, after the lock only.
func (h *AnswerHandlers) counts(c *gin.Context) {
	if pregunta, ok := httpserver.PathID(c, "id", errPregunta); ok {
		out, err := h.Service.Counts(c.Request.Context(), pregunta)
		httpserver.Reply(c, http.StatusOK, out, err)
	}
}

// AnswerRoutes mounts them: the list for anyone (richer signed in), the counts for players,
// the write behind the token's signature (its statement guards on the open session) and the
// predictions' per-session write limit.
func AnswerRoutes(r *gin.Engine, auth *session.Verifier, h *AnswerHandlers) {
	r.GET("/api/preguntas", auth.Optional(), h.list)
	r.GET("/api/preguntas/:id/respuestas", auth.Required(), h.counts)
	r.PUT("/api/preguntas/:id/respuesta", auth.Signed(), h.WriteLimit.Middleware(ratelimit.PerSession), h.answer)
}
