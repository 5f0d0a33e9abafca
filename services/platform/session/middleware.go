package session

import (
	"context"
	"errors"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/apierror"
	"prode/platform/httpserver"
)

const claimsKey = "prode.session"

// Verifier checks session cookies for one service.
type Verifier struct {
	keys   [][]byte // the current key, then the previous ones
	pool   *pgxpool.Pool
	admins Admins // who is an organiser, decided on every request
	now    func() time.Time
}

// NewVerifier verifies tokens signed with key, or with one of previous (SESSION_KEY_PREVIOUS,
// during a key rotation; nil or empty ones are ignored, so an unset previous key can be passed
// as it is); pool reaches players.sesiones_vigentes.
func NewVerifier(key []byte, pool *pgxpool.Pool, previous ...[]byte) *Verifier {
	keys := [][]byte{key}
	for _, p := range previous {
		if len(p) > 0 {
			keys = append(keys, p)
		}
	}
	return &Verifier{keys: keys, pool: pool, now: time.Now}
}

// WithAdmins is the verifier that marks the sessions of admins' addresses as organisers'
// (Claims.Admin, which AdminOnly checks); without it nobody is an organiser.
func (v *Verifier) WithAdmins(admins Admins) *Verifier {
	w := *v
	w.admins = admins
	return &w
}

// parse checks the token's signature and expiry, and decides from the current organisers
// whether its player is one.
func (v *Verifier) parse(token string) (Claims, error) {
	c, err := ParseAny(v.keys, token, v.now())
	if err != nil {
		return c, err
	}
	c.Admin = v.admins.Has(c.Email)
	return c, nil
}

// Verify returns the claims of a live session.
func (v *Verifier) Verify(ctx context.Context, token string) (Claims, error) {
	c, err := v.parse(token)
	if err != nil {
		return c, err
	}
	alive, err := v.Live(ctx, c.SessionID)
	if err != nil {
		return c, err
	}
	if !alive {
		return c, ErrInvalid
	}
	return c, nil
}

// Live says whether the session is still open: not ended by 'Salir', not expired.
func (v *Verifier) Live(ctx context.Context, sessionID string) (bool, error) {
	var alive bool
	err := v.pool.QueryRow(ctx,
		`SELECT EXISTS (SELECT 1 FROM players.sesiones_vigentes WHERE id = $1)`, sessionID).Scan(&alive)
	return alive, err
}

// Optional attaches the player of a valid session, if any: a request without one, or with a
// token that is not ours, expired or ended with 'Salir', is answered as signed out. A session
// that could not be looked up (PostgreSQL away) is not: answering a signed-in player as signed
// out would show their results without their predictions, as if those were lost, so the
// request is answered as httpserver.Fail answers the error (503) and the page asks again.
func (v *Verifier) Optional() gin.HandlerFunc {
	return func(c *gin.Context) {
		if token, err := c.Cookie(CookieName); err == nil && token != "" {
			claims, err := v.Verify(c.Request.Context(), token)
			switch {
			case err == nil:
				c.Set(claimsKey, claims)
			case !signedOut(err):
				httpserver.Fail(c, err)
				return
			}
		}
		c.Next()
	}
}

// signedOut says whether a Verify error means that the request has no open session, rather
// than that it could not be checked.
func signedOut(err error) bool {
	return errors.Is(err, ErrInvalid) || errors.Is(err, pgx.ErrNoRows)
}

// Required refuses requests without a valid session with 401.
func (v *Verifier) Required() gin.HandlerFunc {
	return refusing(v.Verify)
}

// Signed refuses, with 401, requests without a session token that is ours and unexpired, but
// does not ask PostgreSQL whether the session is still open: for writes whose own statement
// guards on players.sesiones_vigentes, which saves a round trip on the busiest route (a
// prediction saved). A route behind Signed must change nothing for a closed session and, when
// its statement changed nothing, ask Live before giving any other reason.
func (v *Verifier) Signed() gin.HandlerFunc {
	return refusing(func(_ context.Context, token string) (Claims, error) { return v.parse(token) })
}

// refusing attaches the claims that check finds in the request's session token. A request
// without a token, or whose token check finds invalid (or whose session row is gone), gets 401;
// another error (PostgreSQL away) is answered as httpserver.Fail answers it.
func refusing(check func(ctx context.Context, token string) (Claims, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		token, err := c.Cookie(CookieName)
		if err != nil || token == "" {
			httpserver.Fail(c, apierror.ErrUnauthenticated)
			return
		}
		claims, err := check(c.Request.Context(), token)
		if signedOut(err) {
			httpserver.Fail(c, apierror.ErrUnauthenticated)
			return
		}
		if err != nil {
			httpserver.Fail(c, err)
			return
		}
		c.Set(claimsKey, claims)
		c.Next()
	}
}

// AdminOnly must follow Required, of a Verifier given the organisers (WithAdmins).
func AdminOnly() gin.HandlerFunc {
	return func(c *gin.Context) {
		if claims, ok := FromContext(c); !ok || !claims.Admin {
			httpserver.Fail(c, apierror.ErrNotAdmin)
			return
		}
		c.Next()
	}
}

// FromContext returns the signed-in player's claims.
func FromContext(c *gin.Context) (Claims, bool) {
	v, ok := c.Get(claimsKey)
	if !ok {
		return Claims{}, false
	}
	return v.(Claims), true
}
