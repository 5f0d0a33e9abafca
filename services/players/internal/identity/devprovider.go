package identity

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"
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

// DevProvider stands in for Google when no Google client is configured: its chooser hands the
// popup a short-lived signed code, and exchanging the code yields an ID token signed by the
// dev key set, verified by the same Verifier as Google's.
type DevProvider struct {
	keys    *KeySet
	codeKey []byte
	now     func() time.Time
}

// NewDevProvider signs codes with codeKey (the session key is fine: codes live two minutes).
func NewDevProvider(codeKey []byte) (*DevProvider, error) {
	keys, err := NewKeySet("prode-dev")
	if err != nil {
		return nil, err
	}
	return &DevProvider{keys: keys, codeKey: codeKey, now: time.Now}, nil
}

// Keys is the dev key set, for the Verifier.
func (d *DevProvider) Keys() *KeySet { return d.keys }

type devCode struct {
	Email   string `json:"email"`
	Nombre  string `json:"nombre"`
	Expires int64  `json:"exp"`
}

// Code is what the chooser posts back to the app for an account.
func (d *DevProvider) Code(a DevAccount) string {
	payload, _ := json.Marshal(devCode{Email: a.Email, Nombre: a.Nombre, Expires: d.now().Add(2 * time.Minute).Unix()})
	body := base64.RawURLEncoding.EncodeToString(payload)
	return "dev." + body + "." + hex.EncodeToString(d.mac(body))
}

// Exchange turns a code into an ID token, as Google's token endpoint does.
func (d *DevProvider) Exchange(_ context.Context, code string) (string, error) {
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
