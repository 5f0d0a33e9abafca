package players

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"prode/platform/apierror"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/players/internal/displayname"
	"prode/players/internal/identity"
	"prode/players/internal/store"
)

// Register refreshes the signed-in player's name. The e-mail in the body must be the
// session's: identity comes from the session, never from the body. The name must pass
// displayname.Check and, unless the player is an organiser, must not pass for the organisers'.
// Sending the name the player already has (the web app does it after every sign-in) changes
// nothing and costs nothing; a real change spends one of the player's renames, so that nobody
// can rename themselves dozens of times a second in the standings.
func (s *Service) Register(ctx context.Context, c session.Claims, nombre, email string) (Jugador, error) {
	if !session.SameEmail(email, c.Email) {
		return Jugador{}, apierror.ErrOtherPlayer
	}
	nombre, err := displayname.Check(nombre)
	if err != nil {
		return Jugador{}, err
	}
	p, err := s.store.Player(ctx, c.PlayerID)
	if errors.Is(err, store.ErrNotFound) {
		return Jugador{}, apierror.ErrUnauthenticated
	}
	if err != nil || p.Nombre == nombre {
		return s.jugador(p), err
	}
	if s.renames != nil {
		if ok, wait := s.renames.Allow(ctx, strconv.FormatInt(c.PlayerID, 10)); !ok {
			return Jugador{}, ratelimit.TooMany(wait)
		}
	}
	if !s.admins.Has(p.Email) {
		organisers, err := s.organiserNames(ctx)
		if err != nil {
			return Jugador{}, err
		}
		if err := displayname.CheckNotImitating(nombre, organisers); err != nil {
			return Jugador{}, err
		}
	}
	p, err = s.store.Rename(ctx, c.PlayerID, nombre)
	if errors.Is(err, store.ErrNotFound) {
		return Jugador{}, apierror.ErrUnauthenticated
	}
	return s.jugador(p), err
}

// signInName is the name a player signs in with: Google's (or the dev chooser's), cleaned
// (displayname.Clean), since a sign-in never fails over a name. One that would pass for the
// organisers', or has nothing left once cleaned, gives way to the address's local part, and
// that to "Jugador".
func (s *Service) signInName(ctx context.Context, who identity.Identity) (string, error) {
	var organisers []string
	if !s.admins.Has(who.Email) {
		var err error
		if organisers, err = s.organiserNames(ctx); err != nil {
			return "", err
		}
	}
	localPart, _, _ := strings.Cut(who.Email, "@")
	for _, candidate := range []string{who.Nombre, localPart} {
		nombre := displayname.Clean(candidate)
		if nombre != "" && (s.admins.Has(who.Email) || !displayname.Imitates(nombre, organisers)) {
			return nombre, nil
		}
	}
	return "Jugador", nil
}

// organiserNames are the display names of the organisers who have signed in.
func (s *Service) organiserNames(ctx context.Context) ([]string, error) {
	if len(s.admins) == 0 {
		return nil, nil
	}
	return s.store.NamesOf(ctx, s.admins.Emails())
}
