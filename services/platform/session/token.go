// Package session mints and verifies the session token every service checks locally: an
// HMAC-signed claim set in an HttpOnly cookie. Only the players service mints; any service
// verifies the signature offline and then asks PostgreSQL (players.sesiones_vigentes) that
// the session was not ended with 'Salir'.
//
// Tokens are always signed with the current key (SESSION_KEY). Verification also accepts a
// previous key (SESSION_KEY_PREVIOUS) so that the key can be rotated without signing every
// player out: sessions minted before the rotation stay valid until they expire or the previous
// key is dropped.
package session

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// CookieName is the session cookie.
const CookieName = "prode_sesion"

// Claims is what a session token says about its player.
type Claims struct {
	SessionID string `json:"sid"`
	PlayerID  int64  `json:"id"`
	Email     string `json:"email"`
	Nombre    string `json:"nombre"`
	Expires   int64  `json:"exp"`
	// Admin is not in the token: the Verifier sets it on each request from the organisers it
	// was given (ADMIN_EMAILS, Verifier.WithAdmins), so that an address removed from them loses
	// the organiser's routes with its sessions still open. An "admin" in an older token is
	// ignored.
	Admin bool `json:"-"`
}

// ErrInvalid is any token that is malformed, forged or expired.
var ErrInvalid = errors.New("invalid session token")

const version = "v1"

// Sign returns "v1.<claims>.<mac>" in base64url.
func Sign(key []byte, c Claims) (string, error) {
	payload, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	body := version + "." + base64.RawURLEncoding.EncodeToString(payload)
	return body + "." + base64.RawURLEncoding.EncodeToString(mac(key, body)), nil
}

// Parse checks the signature and the expiry and returns the claims.
func Parse(key []byte, token string, now time.Time) (Claims, error) {
	return ParseAny([][]byte{key}, token, now)
}

// ParseAny is Parse for a token signed with any of keys: the current key first, then a
// previous one during a rotation.
func ParseAny(keys [][]byte, token string, now time.Time) (Claims, error) {
	var c Claims
	if len(token) > 4096 {
		return c, ErrInvalid
	}
	dot := strings.LastIndexByte(token, '.')
	if dot < 0 {
		return c, ErrInvalid
	}
	body, sig := token[:dot], token[dot+1:]
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !signedWithAny(keys, body, got) {
		return c, ErrInvalid
	}
	ver, payload, ok := strings.Cut(body, ".")
	if !ok || ver != version {
		return c, ErrInvalid
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return c, ErrInvalid
	}
	if c.SessionID == "" || c.PlayerID <= 0 || now.Unix() >= c.Expires {
		return c, ErrInvalid
	}
	return c, nil
}

// signedWithAny: is sig the MAC of body under one of keys? An empty key never counts: an unset
// previous key must not make tokens signed with "" valid.
func signedWithAny(keys [][]byte, body string, sig []byte) bool {
	for _, key := range keys {
		if len(key) > 0 && hmac.Equal(sig, mac(key, body)) {
			return true
		}
	}
	return false
}

func mac(key []byte, body string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(body))
	return h.Sum(nil)
}
