package http

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"prode/platform/apierror"
	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/predictions/internal/bonus"
)

// AnswerHandlers serve the bonus questions: /api/preguntas.
type AnswerHandlers struct {
	Service *bonus.Service
	Metrics *AnswerMetrics
	// WriteLimit is the predictions' per-session write limit: answers spend the same allowance.
	WriteLimit *ratelimit.Limiter
}

var (
	errTorneo   = apierror.Invalid("El torneo tiene que ser un número entero desde 1.")
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
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// answer: PUT /api/preguntas/:id/respuesta, the session's player's own answer.
func (h *AnswerHandlers) answer(c *gin.Context) {
	pregunta, ok := questionID(c)
	if !ok {
		h.Metrics.Refused.WithLabelValues(bonus.ReasonNotFound).Inc()
		return
	}
	var in bonus.Entrada
	if err := httpserver.DecodeJSON(c, &in, httpserver.MaxBody); err != nil {
		h.refuse(c, err)
		return
	}
	claims, _ := session.FromContext(c)
	r, created, err := h.Service.Answer(c.Request.Context(), claims, pregunta, in)
	if err != nil {
		h.refuse(c, err)
		return
	}
	kind := "updated"
	if created {
		kind = "created"
	}
	h.Metrics.Saved.WithLabelValues(kind).Inc()
	c.JSON(http.StatusOK, r)
}

// counts: GET /api/preguntas/:id/respuestas, after the lock only.
func (h *AnswerHandlers) counts(c *gin.Context) {
	pregunta, ok := questionID(c)
	if !ok {
		return
	}
	out, err := h.Service.Counts(c.Request.Context(), pregunta)
	if err != nil {
		httpserver.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

func (h *AnswerHandlers) refuse(c *gin.Context, err error) {
	h.Metrics.Refused.WithLabelValues(bonus.Reason(err)).Inc()
	httpserver.Fail(c, err)
}

func questionID(c *gin.Context) (int64, bool) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		httpserver.Fail(c, errPregunta)
		return 0, false
	}
	return id, true
}

// AnswerRoutes mounts them: the list for anyone (richer signed in), the counts for players,
// the write behind the token's signature (its statement guards on the open session) and the
// predictions' per-session write limit.
func AnswerRoutes(r *gin.Engine, auth *session.Verifier, h *AnswerHandlers) {
	r.GET("/api/preguntas", auth.Optional(), h.list)
	r.GET("/api/preguntas/:id/respuestas", auth.Required(), h.counts)
	r.PUT("/api/preguntas/:id/respuesta", auth.Signed(), h.WriteLimit.Middleware(ratelimit.PerSession), h.answer)
}
