// Package predictions holds the rules of a player's predictions: only the owner reads and
// writes them, goals are 0..99, and nothing changes after the cut-off.
package predictions

import (
	"context"
	"errors"

	"prode/platform/apierror"
	"prode/platform/session"
	"prode/predictions/internal/store"
)

// Store is what the service needs of the database.
type Store interface {
	Save(ctx context.Context, sessionID string, playerID int64, email string, partido int64, local, visitante int) (store.Apuesta, bool, error)
	Update(ctx context.Context, sessionID string, id, playerID, partido int64, local, visitante int) (store.Apuesta, error)
	MatchOf(ctx context.Context, id, playerID int64) (int64, bool, error)
	Match(ctx context.Context, partido int64) (store.MatchState, error)
	OfPlayer(ctx context.Context, playerID int64) ([]store.Apuesta, error)
}

// Entrada is a prediction as a player sends it; pointers tell missing from zero.
type Entrada struct {
	Partido        *int64  `json:"partido"`
	GolesLocal     *Goles  `json:"goles_local"`
	GolesVisitante *Goles  `json:"goles_visitante"`
	Jugador        *string `json:"jugador"`
}

// Refusal codes, also the label of the refused-predictions metric.
const (
	ReasonClosed    = "apuesta_cerrada"
	ReasonFinished  = "partido_finalizado"
	ReasonSuspended = "partido_no_apostable"
	ReasonNoTeams   = "partido_sin_equipos"
	ReasonNotFound  = "no_encontrado"
	ReasonInvalid   = "datos_invalidos"
	ReasonOther     = "prohibido"
)

// Reasons are every refusal code, for the metric's series.
var Reasons = []string{ReasonClosed, ReasonFinished, ReasonSuspended, ReasonNoTeams, ReasonNotFound, ReasonInvalid, ReasonOther}

var (
	errClosed     = apierror.Conflict(ReasonClosed, "Este partido ya no acepta jugadas: se pueden cambiar hasta 1 hora antes del inicio.")
	errFinished   = apierror.Conflict(ReasonFinished, "Este partido ya se jugó: no acepta más jugadas.")
	errSuspended  = apierror.Conflict(ReasonSuspended, "Este partido está suspendido: por ahora no acepta jugadas.")
	errGoles      = apierror.Invalid("Los goles tienen que ser un número entero de 0 a 99.")
	errNoTeams    = apierror.Conflict(ReasonNoTeams, "Todavía no se conocen los equipos de este partido.")
	errNoMatch    = apierror.NotFound("Ese partido no existe.")
	errNoApuesta  = apierror.NotFound("No encontramos esa jugada entre las tuyas.")
	errWrongMatch = apierror.Invalid("La jugada es de otro partido.")
)

// Sessions says whether a session is still open (session.Verifier). The write routes check
// only the token's signature; the write statements guard on the session, and when one changes
// nothing this is asked first, so that a closed session is told so (401) and never why the
// write would have been refused otherwise.
type Sessions interface {
	Live(ctx context.Context, sessionID string) (bool, error)
}

// Service applies the rules.
type Service struct {
	store    Store
	sessions Sessions
}

// New builds the service.
func New(st Store, sessions Sessions) *Service { return &Service{store: st, sessions: sessions} }

// Owner checks that the e-mail of the path is the session's: identity comes from the
// session, never from the path. The addresses must be equal once normalized
// (session.SameEmail): Unicode case folding would let "ſ" stand for "s".
func Owner(c session.Claims, email string) error {
	if !session.SameEmail(email, c.Email) {
		return apierror.ErrOtherPlayer
	}
	return nil
}

func (e Entrada) validate(c session.Claims) (int64, int, int, error) {
	if e.Jugador != nil && !session.SameEmail(*e.Jugador, c.Email) {
		return 0, 0, 0, apierror.ErrOtherPlayer
	}
	if e.Partido == nil || *e.Partido < 1 {
		return 0, 0, 0, apierror.Invalid("Falta el partido de la jugada.")
	}
	// The specification's own alert texts, so the player reads the same words either way.
	if e.GolesLocal == nil {
		return 0, 0, 0, apierror.Invalid("Te falta poner el resultado del equipo local.")
	}
	if e.GolesVisitante == nil {
		return 0, 0, 0, apierror.Invalid("Te falta poner el resultado del equipo visitante.")
	}
	local, okLocal := e.GolesLocal.Entero()
	visitante, okVisitante := e.GolesVisitante.Entero()
	if !okLocal || !okVisitante {
		return 0, 0, 0, errGoles
	}
	return *e.Partido, local, visitante, nil
}

// Save creates or updates the player's prediction for the match; created tells which.
func (s *Service) Save(ctx context.Context, c session.Claims, e Entrada) (store.Apuesta, bool, error) {
	partido, local, visitante, err := e.validate(c)
	if err != nil {
		return store.Apuesta{}, false, err
	}
	a, created, err := s.store.Save(ctx, c.SessionID, c.PlayerID, c.Email, partido, local, visitante)
	if errors.Is(err, store.ErrNoRows) {
		return a, false, s.whyRefused(ctx, c, partido)
	}
	return a, created, err
}

// Update changes the player's prediction id.
func (s *Service) Update(ctx context.Context, c session.Claims, id int64, e Entrada) (store.Apuesta, error) {
	partido, local, visitante, err := e.validate(c)
	if err != nil {
		return store.Apuesta{}, err
	}
	a, err := s.store.Update(ctx, c.SessionID, id, c.PlayerID, partido, local, visitante)
	if !errors.Is(err, store.ErrNoRows) {
		return a, err
	}
	if err := s.sessionEnded(ctx, c); err != nil {
		return a, err
	}
	owned, ok, err := s.store.MatchOf(ctx, id, c.PlayerID)
	switch {
	case err != nil:
		return a, err
	case !ok:
		return a, errNoApuesta
	case owned != partido:
		return a, errWrongMatch
	}
	return a, s.whyRefused(ctx, c, partido)
}

// OfPlayer lists the player's predictions.
func (s *Service) OfPlayer(ctx context.Context, c session.Claims) ([]store.Apuesta, error) {
	return s.store.OfPlayer(ctx, c.PlayerID)
}

// sessionEnded is ErrUnauthenticated when the session is no longer open.
func (s *Service) sessionEnded(ctx context.Context, c session.Claims) error {
	live, err := s.sessions.Live(ctx, c.SessionID)
	switch {
	case err != nil:
		return err
	case !live:
		return apierror.ErrUnauthenticated
	}
	return nil
}

// whyRefused tells why a write changed nothing: a closed session first, then the match. A
// finished or suspended match has its own code: the cut-off's message would be wrong for it.
func (s *Service) whyRefused(ctx context.Context, c session.Claims, partido int64) error {
	if err := s.sessionEnded(ctx, c); err != nil {
		return err
	}
	st, err := s.store.Match(ctx, partido)
	switch {
	case err != nil:
		return err
	case !st.Exists:
		return errNoMatch
	case st.Finished:
		return errFinished
	case !st.WithTeams:
		return errNoTeams
	case st.Suspended:
		return errSuspended
	default:
		return errClosed
	}
}
