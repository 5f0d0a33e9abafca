// Package identity turns the code from the sign-in popup into a verified identity: Google's
// auth-code exchange and ID token, or the local dev provider that stands in for Google and
// goes through the same verification.
package identity

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/api/idtoken"
	"google.golang.org/api/option"

	"prode/platform/session"
)

// Identity is who the ID token says signed in.
type Identity struct {
	Subject string
	Email   string
	Nombre  string
}

// ErrRejected is any ID token we do not accept: forged, expired, for another audience, from
// another issuer, or with an unverified e-mail.
var ErrRejected = errors.New("id token rejected")

// Verifier checks Google ID tokens.
type Verifier struct {
	validator *idtoken.Validator
	audience  string
}

// NewVerifier validates tokens for audience (the OAuth client id). keys fetches the key
// set: nil for Google's, or a client serving a test or dev key set.
func NewVerifier(ctx context.Context, audience string, keys *http.Client) (*Verifier, error) {
	var opts []option.ClientOption
	if keys != nil {
		opts = append(opts, option.WithHTTPClient(keys))
	}
	v, err := idtoken.NewValidator(ctx, opts...)
	if err != nil {
		return nil, err
	}
	return &Verifier{validator: v, audience: audience}, nil
}

// Verify checks signature, expiry and audience (idtoken), then what idtoken does not: the
// issuer and that Google verified the e-mail address.
func (v *Verifier) Verify(ctx context.Context, token string) (Identity, error) {
	payload, err := v.validator.Validate(ctx, token, v.audience)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrRejected, err)
	}
	if payload.Issuer != "accounts.google.com" && payload.Issuer != "https://accounts.google.com" {
		return Identity{}, fmt.Errorf("%w: issuer %q", ErrRejected, payload.Issuer)
	}
	if verified, _ := payload.Claims["email_verified"].(bool); !verified {
		return Identity{}, fmt.Errorf("%w: e-mail not verified", ErrRejected)
	}
	email, _ := payload.Claims["email"].(string)
	// ASCII lower case only (session.NormalizeEmail): Unicode's would make "Kim@…" written
	// with the Kelvin sign the same player as "kim@…".
	email = session.NormalizeEmail(email)
	if email == "" || payload.Subject == "" {
		return Identity{}, fmt.Errorf("%w: no e-mail or subject", ErrRejected)
	}
	nombre, _ := payload.Claims["name"].(string)
	if strings.TrimSpace(nombre) == "" {
		nombre, _, _ = strings.Cut(email, "@")
	}
	return Identity{Subject: payload.Subject, Email: email, Nombre: strings.TrimSpace(nombre)}, nil
}
