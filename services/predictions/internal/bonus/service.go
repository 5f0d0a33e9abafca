// Package bonus holds the rules of the players' answers to the bonus questions: only the
// session's player writes their own answer, one of the question's options, until the
// question's lock by the database clock; everyone's answers are counted only after the lock.
package bonus

import (
	"context"
	"errors"

	"prode/platform/apierror"
	"prode/platform/session"
	"prode/predictions/internal/store"
)

// Store is what the service needs of the database.
type Store interface {
	Questions(ctx context.Context, torneo, playerID int64) ([]store.Pregunta, error)
	SaveAnswer(ctx context.Context, sessionID string, playerID, pregunta, opcion int64) (store.Respuesta, bool, error)
	Question(ctx context.Context, pregunta, opcion int64) (store.QuestionState, error)
	Counts(ctx context.Context, pregunta int64) ([]store.Conteo, int64, bool, error)
}

// Sessions says whether a session is still open (session.Verifier): the write statement
// guards on it, and a refused write asks it first so that a closed session is told so.
type Sessions interface {
	Live(ctx context.Context, sessionID string) (bool, error)
}

// Refusal codes, also the label of the refused-answers metric.
const (
	ReasonClosed   = "pregunta_cerrada"
	ReasonNotFound = "no_encontrado"
	ReasonInvalid  = "datos_invalidos"
	ReasonSession  = "no_autenticado"
)

// Reasons are every refusal code, for the metric's series.
var Reasons = []string{ReasonClosed, ReasonNotFound, ReasonInvalid, ReasonSession}

var (
	errClosed     = apierror.Conflict(ReasonClosed, "La pregunta ya está cerrada; no se puede cambiar la respuesta.")
	errHidden     = apierror.Conflict("respuestas_ocultas", "Las respuestas se muestran cuando cierra la pregunta.")
	errNoQuestion = apierror.NotFound("Esa pregunta no existe.")
	errNoOption   = apierror.Invalid("Esa opción no es de esta pregunta.")
	errOpcion     = apierror.Invalid("Falta la opción elegida (opcion).")
)

// Entrada is an answer as a player sends it.
type Entrada struct {
	Opcion *int64 `json:"opcion"`
}

// Conteos is GET /api/preguntas/{id}/respuestas.
type Conteos struct {
	Pregunta int64          `json:"pregunta"`
	Total    int64          `json:"total"`
	Opciones []store.Conteo `json:"opciones"`
}

// Service applies the rules.
type Service struct {
	store    Store
	sessions Sessions
}

// New builds the service.
func New(st Store, sessions Sessions) *Service { return &Service{store: st, sessions: sessions} }

// Questions lists a tournament's questions (0: the current one), with the player's own
// answers when signed in (claims.PlayerID 0 otherwise).
func (s *Service) Questions(ctx context.Context, c session.Claims, torneo int64) ([]store.Pregunta, error) {
	return s.store.Questions(ctx, torneo, c.PlayerID)
}

// Answer saves the session's player's answer; created tells whether it is new.
func (s *Service) Answer(ctx context.Context, c session.Claims, pregunta int64, e Entrada) (store.Respuesta, bool, error) {
	if e.Opcion == nil || *e.Opcion < 1 {
		return store.Respuesta{}, false, errOpcion
	}
	r, created, err := s.store.SaveAnswer(ctx, c.SessionID, c.PlayerID, pregunta, *e.Opcion)
	if !errors.Is(err, store.ErrNoRows) {
		return r, created, err
	}
	return r, false, s.whyRefused(ctx, c, pregunta, *e.Opcion)
}

// whyRefused tells why an answer was not written: a closed session first, then the question.
func (s *Service) whyRefused(ctx context.Context, c session.Claims, pregunta, opcion int64) error {
	live, err := s.sessions.Live(ctx, c.SessionID)
	switch {
	case err != nil:
		return err
	case !live:
		return apierror.ErrUnauthenticated
	}
	st, err := s.store.Question(ctx, pregunta, opcion)
	switch {
	case err != nil:
		return err
	case !st.Exists:
		return errNoQuestion
	case !st.OfOption:
		return errNoOption
	default:
		return errClosed
	}
}

// Counts is how many players chose each option, once the question is locked.
func (s *Service) Counts(ctx context.Context, pregunta int64) (Conteos, error) {
	conteos, total, ok, err := s.store.Counts(ctx, pregunta)
	if err != nil || ok {
		return Conteos{Pregunta: pregunta, Total: total, Opciones: conteos}, err
	}
	st, err := s.store.Question(ctx, pregunta, 0)
	switch {
	case err != nil:
		return Conteos{}, err
	case !st.Exists:
		return Conteos{}, errNoQuestion
	}
	return Conteos{}, errHidden
}
