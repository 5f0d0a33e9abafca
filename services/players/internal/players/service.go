// Package players signs players in and out: it verifies the identity behind the popup's code,
// registers the player and mints the session every service verifies.
package players

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"prode/platform/apierror"
	"prode/platform/session"
	"prode/players/internal/identity"
	"prode/players/internal/store"
)

// Exchanger trades the popup's code for an ID token (Google, or the dev provider).
type Exchanger interface {
	Exchange(ctx context.Context, code string) (string, error)
}

// Verifier checks an ID token.
type Verifier interface {
	Verify(ctx context.Context, token string) (identity.Identity, error)
}

// Store is what the service needs of the database.
type Store interface {
	SignIn(ctx context.Context, subject, email, nombre, sessionID string, expires time.Time) (store.Player, error)
	Player(ctx context.Context, id int64) (store.Player, error)
	Rename(ctx context.Context, id int64, nombre string) (store.Player, error)
	NamesOf(ctx context.Context, emails []string) ([]string, error)
	EndSession(ctx context.Context, sessionID string) error
	RenewSession(ctx context.Context, sessionID string, expires time.Time) (bool, error)
}

// Limiter takes a token from a key's bucket (ratelimit.Limiter).
type Limiter interface {
	Allow(ctx context.Context, key string) (bool, time.Duration)
}

// Jugador is the signed-in player as the API shows it.
type Jugador struct {
	ID     int64  `json:"id"`
	Nombre string `json:"nombre"`
	Email  string `json:"email"`
	Admin  bool   `json:"admin"`
}

// Service signs players in and out.
type Service struct {
	exchanger  Exchanger
	verifier   Verifier
	store      Store
	sessionKey []byte
	sessionTTL time.Duration
	admins     session.Admins
	renames    Limiter
}

// New builds the service; admins are the organisers (ADMIN_EMAILS), renames limits each
// player's changes of name (nil: no limit).
func New(ex Exchanger, v Verifier, st Store, sessionKey []byte, ttl time.Duration, admins session.Admins, renames Limiter) *Service {
	return &Service{exchanger: ex, verifier: v, store: st, sessionKey: sessionKey, sessionTTL: ttl, admins: admins, renames: renames}
}

// SignIn exchanges the code, verifies the ID token, registers the player and returns the
// session token with the player.
func (s *Service) SignIn(ctx context.Context, code string) (Jugador, string, time.Time, error) {
	idToken, err := s.exchanger.Exchange(ctx, code)
	if errors.Is(err, identity.ErrBadCode) {
		return Jugador{}, "", time.Time{}, apierror.ErrBadCredential.Wrap(err)
	}
	if err != nil {
		return Jugador{}, "", time.Time{}, fmt.Errorf("code exchange: %w", err)
	}
	who, err := s.verifier.Verify(ctx, idToken)
	if err != nil {
		return Jugador{}, "", time.Time{}, apierror.ErrBadCredential.Wrap(err)
	}
	nombre, err := s.signInName(ctx, who)
	if err != nil {
		return Jugador{}, "", time.Time{}, err
	}
	sessionID := newSessionID()
	expires := time.Now().Add(s.sessionTTL)
	p, err := s.store.SignIn(ctx, who.Subject, who.Email, nombre, sessionID, expires)
	if err != nil {
		return Jugador{}, "", time.Time{}, err
	}
	token, err := session.Sign(s.sessionKey, session.Claims{
		SessionID: sessionID, PlayerID: p.ID, Email: p.Email, Nombre: p.Nombre, Expires: expires.Unix(),
	})
	return s.jugador(p), token, expires, err
}

// Current returns the signed-in player as stored now.
func (s *Service) Current(ctx context.Context, c session.Claims) (Jugador, error) {
	p, err := s.store.Player(ctx, c.PlayerID)
	if errors.Is(err, store.ErrNotFound) {
		return Jugador{}, apierror.ErrUnauthenticated
	}
	return s.jugador(p), err
}

// SignOut ends the session server-side.
func (s *Service) SignOut(ctx context.Context, c session.Claims) error {
	return s.store.EndSession(ctx, c.SessionID)
}

// jugador is the player as the API shows it; whether an organiser is decided now, from
// ADMIN_EMAILS.
func (s *Service) jugador(p store.Player) Jugador {
	return Jugador{ID: p.ID, Nombre: p.Nombre, Email: p.Email, Admin: s.admins.Has(p.Email)}
}

func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
