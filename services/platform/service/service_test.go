package service

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/session"
)

// TRUSTED_PROXY_HOPS: one proxy (the ingress) unless told otherwise, 0 to ignore
// X-Forwarded-For, and anything else refused at start rather than guessed.
func TestTrustedProxyHops(t *testing.T) {
	for value, want := range map[string]int{"": 1, "0": 0, "1": 1, "2": 2, "10": 10} {
		env := config.FromMap(map[string]string{"TRUSTED_PROXY_HOPS": value})
		if got := ReadBase(env, "test").HTTP.TrustedProxyHops; got != want {
			t.Errorf("TRUSTED_PROXY_HOPS=%q: %d, want %d", value, got, want)
		}
		if err := env.Err(); err != nil && strings.Contains(err.Error(), "TRUSTED_PROXY_HOPS") {
			t.Errorf("TRUSTED_PROXY_HOPS=%q refused: %v", value, err)
		}
	}
	for _, value := range []string{"-1", "11", "one"} {
		env := config.FromMap(map[string]string{"TRUSTED_PROXY_HOPS": value})
		ReadBase(env, "test")
		if err := env.Err(); err == nil || !strings.Contains(err.Error(), "TRUSTED_PROXY_HOPS must be an integer from 0 to 10") {
			t.Errorf("TRUSTED_PROXY_HOPS=%q: %v, want it refused", value, err)
		}
	}
}

// SESSION_KEY rotation, from the environment to a request's answer: the services sign with
// SESSION_KEY and accept SESSION_KEY_PREVIOUS too, so an operator who moves the old key to
// SESSION_KEY_PREVIOUS signs nobody out; without it, every session minted before is refused.
func TestSessionKeyRotation(t *testing.T) {
	oldKey, newKey, otherKey := randomKey(t), randomKey(t), randomKey(t)
	b64 := base64.StdEncoding.EncodeToString
	now := time.Now()
	claims := session.Claims{SessionID: "s-1", PlayerID: 7, Email: "ana@prode.test", Nombre: "Ana", Expires: now.Add(time.Hour).Unix()}
	mint := func(key []byte) string {
		token, err := session.Sign(key, claims)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	beforeRotation := mint(oldKey)

	// status answers a request carrying token to a service configured by vars.
	status := func(vars map[string]string, token string) int {
		t.Helper()
		env := config.FromMap(vars)
		base := ReadBase(env, "test")
		if err := env.Err(); err != nil {
			t.Fatalf("%v refused: %v", vars, err)
		}
		server := httpserver.New(base.HTTP, slog.New(slog.NewTextHandler(io.Discard, nil)))
		// Signed checks the token alone (no PostgreSQL), which is all a key changes.
		server.Engine.GET("/api/yo", session.NewVerifier(base.SessionKey, nil, base.SessionKeyPrevious).Signed(),
			func(c *gin.Context) { c.Status(http.StatusNoContent) })
		r := httptest.NewRequest("GET", "/api/yo", nil)
		r.AddCookie(&http.Cookie{Name: session.CookieName, Value: token})
		rec := httptest.NewRecorder()
		server.Engine.ServeHTTP(rec, r)
		return rec.Code
	}

	before := map[string]string{"DATABASE_URL": "postgres://x@db/prode", "SESSION_KEY": b64(oldKey)}
	rotated := map[string]string{"DATABASE_URL": "postgres://x@db/prode", "SESSION_KEY": b64(newKey), "SESSION_KEY_PREVIOUS": b64(oldKey)}
	rotatedNoPrevious := map[string]string{"DATABASE_URL": "postgres://x@db/prode", "SESSION_KEY": b64(newKey)}
	for _, c := range []struct {
		name  string
		vars  map[string]string
		token string
		want  int
	}{
		{"before the rotation", before, beforeRotation, 204},
		{"an old session, the old key as previous", rotated, beforeRotation, 204},
		{"an old session, the old key dropped", rotatedNoPrevious, beforeRotation, 401},
		{"a new session after the rotation", rotated, mint(newKey), 204},
		{"a new session, after the old key is dropped", rotatedNoPrevious, mint(newKey), 204},
		{"a new session on a pod not rotated yet", before, mint(newKey), 401},
		{"a token of another key, with a previous key", rotated, mint(otherKey), 401},
		{"a token of another key", rotatedNoPrevious, mint(otherKey), 401},
	} {
		if got := status(c.vars, c.token); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}

	// New sessions are signed with SESSION_KEY, never the previous one: a token minted with
	// the key the players service is given verifies under the new key alone.
	env := config.FromMap(rotated)
	if base := ReadBase(env, "test"); string(base.SessionKey) != string(newKey) || string(base.SessionKeyPrevious) != string(oldKey) {
		t.Errorf("SessionKey/SessionKeyPrevious read as %x / %x, want %x / %x", base.SessionKey, base.SessionKeyPrevious, newKey, oldKey)
	}
}

// SESSION_KEY_PREVIOUS has SESSION_KEY's rules: unset is fine, anything that is not base64 of
// 32 bytes or more stops the service at start; and neither key is ever logged.
func TestSessionKeyPreviousIsValidatedAndMasked(t *testing.T) {
	current := base64.StdEncoding.EncodeToString(randomKey(t))
	vars := func(previous string) map[string]string {
		return map[string]string{"DATABASE_URL": "postgres://x@db/prode", "SESSION_KEY": current, "SESSION_KEY_PREVIOUS": previous}
	}
	for _, previous := range []string{"", "   "} {
		env := config.FromMap(vars(previous))
		if base := ReadBase(env, "test"); env.Err() != nil || base.SessionKeyPrevious != nil {
			t.Errorf("SESSION_KEY_PREVIOUS=%q: %v, key %x; want unset accepted", previous, env.Err(), base.SessionKeyPrevious)
		}
	}
	for _, previous := range []string{"c2hvcnQ=", "not base64 at all!", base64.StdEncoding.EncodeToString(make([]byte, 31))} {
		env := config.FromMap(vars(previous))
		ReadBase(env, "test")
		if err := env.Err(); err == nil || !strings.Contains(err.Error(), "SESSION_KEY_PREVIOUS must be base64 of at least 32 bytes") {
			t.Errorf("SESSION_KEY_PREVIOUS=%q: %v, want it refused", previous, err)
		}
	}
	// The URL-safe alphabet is accepted, as for SESSION_KEY.
	previousKey := randomKey(t)
	previous := base64.RawURLEncoding.EncodeToString(previousKey)
	env := config.FromMap(vars(previous))
	base := ReadBase(env, "test")
	if env.Err() != nil || string(base.SessionKeyPrevious) != string(previousKey) {
		t.Errorf("SESSION_KEY_PREVIOUS in base64url: %v, key %x", env.Err(), base.SessionKeyPrevious)
	}

	var logged bytes.Buffer
	env.Log(slog.New(slog.NewJSONHandler(&logged, nil)))
	line := logged.String()
	if strings.Contains(line, current) || strings.Contains(line, previous) {
		t.Errorf("a session key is in the logged configuration: %s", line)
	}
	if strings.Count(line, `"SESSION_KEY_PREVIOUS":"***"`) != 1 || strings.Count(line, `"SESSION_KEY":"***"`) != 1 {
		t.Errorf("want SESSION_KEY and SESSION_KEY_PREVIOUS logged once each, masked: %s", line)
	}
}

func randomKey(t *testing.T) []byte {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return key
}
