package identity

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"prode/platform/apierror"
	"prode/platform/session"
	"prode/players/internal/displayname"
)

// DevAudience is the client id of the dev provider's tokens.
const DevAudience = "prode-dev"

// DevAccount is a demo account offered by the local account chooser.
type DevAccount struct {
	Nombre string
	Email  string
}

// DevAccounts are the demo players and the demo organiser (admin@prode.test, an admin when
// ADMIN_EMAILS lists it, as `make up` does).
var DevAccounts = []DevAccount{
	{Nombre: "Ana Gómez", Email: "ana@prode.test"},
	{Nombre: "Bruno Díaz", Email: "bruno@prode.test"},
	{Nombre: "Carla Pérez", Email: "carla@prode.test"},
	{Nombre: "Organizador Demo", Email: "admin@prode.test"},
}

var errDevEmail = apierror.Invalid("Escribí un correo electrónico válido.")

// NewDevAccount is the account of the chooser's "use another account" form: a display name
// as a player could type it (displayname.Check, so that no control character reaches a code,
// nor the database at sign-in) and an e-mail address, normalized as sign-in does. Its errors
// are *apierror.Error with a Spanish message for the chooser's page.
func NewDevAccount(nombre, email string) (DevAccount, error) {
	nombre, err := displayname.Check(nombre)
	if err != nil {
		return DevAccount{}, err
	}
	email = session.NormalizeEmail(email)
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email || !printable(email) {
		return DevAccount{}, errDevEmail
	}
	return DevAccount{Nombre: nombre, Email: email}, nil
}

// printable: valid UTF-8 with nothing but visible characters. net/mail takes UTF-8 local parts
// (RFC 6532) without looking at them, C1 controls such as NEL (U+0085) and format characters
// included.
func printable(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) || unicode.IsSpace(r) }) < 0
}

// UsedCodes remembers which dev codes were exchanged, for every replica (PostgreSQL: the store's
// players.codigos_dev_usados).
type UsedCodes interface {
	// MarkDevCodeUsed records nonce as used until vence, in the same step that checks it: false
	// means it was used before. An error means nothing is known, and the code is not accepted.
	MarkDevCodeUsed(ctx context.Context, nonce string, vence time.Time) (bool, error)
}

// DevProvider stands in for Google when no Google client is configured: its chooser hands the
// popup a short-lived signed code, and exchanging the code yields an ID token signed by the
// dev key set, verified by the same Verifier as Google's. Like Google's, a code is exchanged
// once: each carries a random nonce, recorded in used when the code is accepted.
type DevProvider struct {
	keys     *KeySet
	codeKey  []byte
	used     UsedCodes
	now      func() time.Time
	newNonce func() string
}

// NewDevProvider signs codes with codeKey (the session key is fine: codes live two minutes)
// and records the exchanged ones in used.
func NewDevProvider(codeKey []byte, used UsedCodes) (*DevProvider, error) {
	if used == nil {
		// Without it every code could be exchanged again and again until it expires.
		return nil, errors.New("dev provider: no record of used codes")
	}
	keys, err := NewKeySet("prode-dev")
	if err != nil {
		return nil, err
	}
	return &DevProvider{keys: keys, codeKey: codeKey, used: used, now: time.Now, newNonce: randomNonce}, nil
}

// randomNonce is 16 random bytes in hex: unguessable, and never repeated in practice, so that
// two codes minted in the same second for the same account are still two codes.
func randomNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it crashes the program instead)
	return hex.EncodeToString(b[:])
}

// Keys is the dev key set, for the Verifier.
func (d *DevProvider) Keys() *KeySet { return d.keys }

type devCode struct {
	Email   string `json:"email"`
	Nombre  string `json:"nombre"`
	Expires int64  `json:"exp"`
	Nonce   string `json:"nonce"`
}

// Code is what the chooser posts back to the app for an account.
func (d *DevProvider) Code(a DevAccount) string {
	payload, _ := json.Marshal(devCode{Email: a.Email, Nombre: a.Nombre, Expires: d.now().Add(2 * time.Minute).Unix(), Nonce: d.newNonce()})
	body := base64.RawURLEncoding.EncodeToString(payload)
	return "dev." + body + "." + hex.EncodeToString(d.mac(body))
}

// Exchange turns a code into an ID token, as Google's token endpoint does, once per code. A
// code already exchanged is ErrBadCode, like a forged or expired one; a failure to record the
// code is returned as it is (PostgreSQL down: the handler answers 503), never as a success.
func (d *DevProvider) Exchange(ctx context.Context, code string) (string, error) {
	parts := strings.Split(code, ".")
	if len(parts) != 3 || parts[0] != "dev" {
		return "", ErrBadCode
	}
	sig, err := hex.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, d.mac(parts[1])) {
		return "", ErrBadCode
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	var c devCode
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return "", ErrBadCode
	}
	now := d.now()
	if now.Unix() >= c.Expires {
		return "", errors.Join(ErrBadCode, errors.New("code expired"))
	}
	// Codes minted before nonces existed carry none and could not be told apart: refused.
	if n, err := hex.DecodeString(c.Nonce); err != nil || len(n) != 16 {
		return "", errors.Join(ErrBadCode, errors.New("code without a nonce"))
	}
	// Last, so that only genuine unexpired codes reach the database.
	fresh, err := d.used.MarkDevCodeUsed(ctx, c.Nonce, time.Unix(c.Expires, 0))
	if err != nil {
		return "", fmt.Errorf("recording the dev code as used: %w", err)
	}
	if !fresh {
		return "", errors.Join(ErrBadCode, errors.New("code already exchanged"))
	}
	sub := sha256.Sum256([]byte(c.Email))
	return d.keys.Sign(map[string]any{
		"iss": "https://accounts.google.com", "aud": DevAudience,
		"sub": "dev-" + hex.EncodeToString(sub[:8]), "email": c.Email, "email_verified": true,
		"name": c.Nombre, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
	})
}

func (d *DevProvider) mac(body string) []byte {
	h := hmac.New(sha256.New, d.codeKey)
	h.Write([]byte("dev-code:" + body))
	return h.Sum(nil)
}
