package identity

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
)

// KeySet is an RSA signing key that issues Google-shaped ID tokens and serves its public
// half as a JWKS: the dev provider's issuer, and the test key set of the Google tests.
type KeySet struct {
	ID  string
	key *rsa.PrivateKey
}

// NewKeySet makes a fresh 2048-bit key.
func NewKeySet(id string) (*KeySet, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	return &KeySet{ID: id, key: key}, nil
}

// Sign returns an RS256 JWT of claims.
func (k *KeySet) Sign(claims map[string]any) (string, error) {
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "kid": k.ID, "typ": "JWT"})
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	signing := b64(header) + "." + b64(payload)
	sum := sha256.Sum256([]byte(signing))
	sig, err := rsa.SignPKCS1v15(rand.Reader, k.key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return signing + "." + b64(sig), nil
}

// JWKS is the public key set in the format Google serves.
func (k *KeySet) JWKS() []byte {
	pub := k.key.PublicKey
	doc, _ := json.Marshal(map[string]any{"keys": []map[string]string{{
		"kid": k.ID, "kty": "RSA", "alg": "RS256", "use": "sig",
		"n": b64(pub.N.Bytes()), "e": b64(big.NewInt(int64(pub.E)).Bytes()),
	}}})
	return doc
}

// Client is an HTTP client whose every request is answered with the JWKS, so that idtoken
// fetches this key set instead of Google's (option.WithHTTPClient).
func (k *KeySet) Client() *http.Client {
	return &http.Client{Transport: jwksTransport(k.JWKS())}
}

type jwksTransport []byte

func (t jwksTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Request: r,
		Header: http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"max-age=3600"}},
		Body:   io.NopCloser(bytes.NewReader(t)),
	}, nil
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
