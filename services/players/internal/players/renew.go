package players

import (
	"context"
	"time"

	"prode/platform/session"
)

// Renew slides a session that is in use: once less than half of the session's lifetime
// (SESSION_TTL) is left, the session is extended to a full lifetime from now and a token with
// the new expiry is returned for the cookie; otherwise, or when the session has ended
// meanwhile, the token is "". So a player who keeps coming back stays signed in, while a
// session left open on a shared computer ends a lifetime after its last use.
func (s *Service) Renew(ctx context.Context, c session.Claims) (string, time.Time, error) {
	now := time.Now()
	if time.Unix(c.Expires, 0).Sub(now) > s.sessionTTL/2 {
		return "", time.Time{}, nil
	}
	expires := now.Add(s.sessionTTL)
	renewed, err := s.store.RenewSession(ctx, c.SessionID, expires)
	if err != nil || !renewed {
		return "", time.Time{}, err
	}
	c.Expires = expires.Unix()
	token, err := session.Sign(s.sessionKey, c)
	return token, expires, err
}
