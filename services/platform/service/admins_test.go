package service

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"prode/platform/config"
	"prode/platform/httpserver"
	"prode/platform/session"
)

// ADMIN_EMAILS decides, on every request, who passes AdminOnly: an address removed from it
// loses the organiser's routes with the same, unexpired session, and a token that says
// "admin":true (as tokens did before) counts for nothing. The addresses compare as
// session.NormalizeEmail does: case of ASCII letters only, never Unicode folding.
func TestAdminEmailsDecideOnEveryRequest(t *testing.T) {
	key := randomKey(t)
	b64 := base64.StdEncoding.EncodeToString
	now := time.Now()
	token := func(email string, admin bool) string {
		if !admin {
			tok, err := session.Sign(key, session.Claims{SessionID: "s-1", PlayerID: 7, Email: email, Nombre: "Ana", Expires: now.Add(time.Hour).Unix()})
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}
		// A token as the players service minted them while the flag lived in the token.
		return legacyToken(key, `{"sid":"s-1","id":7,"email":"`+email+`","nombre":"Ana","admin":true,"exp":`+strconv.FormatInt(now.Add(time.Hour).Unix(), 10)+`}`)
	}
	status := func(adminEmails, token string) int {
		t.Helper()
		env := config.FromMap(map[string]string{"DATABASE_URL": "postgres://x@db/prode", "SESSION_KEY": b64(key), "ADMIN_EMAILS": adminEmails})
		base := ReadBase(env, "test")
		if err := env.Err(); err != nil {
			t.Fatalf("ADMIN_EMAILS=%q refused: %v", adminEmails, err)
		}
		server := httpserver.New(base.HTTP, slog.New(slog.NewTextHandler(io.Discard, nil)))
		// Signed checks the token alone (no PostgreSQL); Required decides the same way
		// (the players and fixtures handler tests run it on the database).
		verifier := session.NewVerifier(base.SessionKey, nil).WithAdmins(base.Admins)
		server.Engine.PUT("/api/organizar", verifier.Signed(), session.AdminOnly(), func(c *gin.Context) { c.Status(http.StatusNoContent) })
		r := httptest.NewRequest("PUT", "/api/organizar", nil)
		r.AddCookie(&http.Cookie{Name: session.CookieName, Value: token})
		rec := httptest.NewRecorder()
		server.Engine.ServeHTTP(rec, r)
		return rec.Code
	}
	for _, c := range []struct {
		name, adminEmails, token string
		want                     int
	}{
		{"listed", "ana@prode.test, kim@prode.test", token("ana@prode.test", false), 204},
		{"listed in capitals", "ANA@Prode.Test", token("ana@prode.test", false), 204},
		{"removed from the list, same session", "kim@prode.test", token("ana@prode.test", false), 403},
		{"removed, a token that says admin", "kim@prode.test", token("ana@prode.test", true), 403},
		{"no organisers at all, a token that says admin", "", token("ana@prode.test", true), 403},
		{"the long s is not an s", "sofia@prode.test", token("ſofia@prode.test", false), 403},
		{"the Kelvin sign is not a k", "kim@prode.test", token("\u212Aim@prode.test", false), 403},
	} {
		if got := status(c.adminEmails, c.token); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// A mistyped ADMIN_EMAILS stops the service at start instead of leaving an organiser out.
func TestAdminEmailsAreAddresses(t *testing.T) {
	for _, value := range []string{"ana@prode.test; kim@prode.test", "Ana <ana@prode.test>", "organizadora"} {
		env := config.FromMap(map[string]string{"ADMIN_EMAILS": value})
		ReadBase(env, "test")
		if err := env.Err(); err == nil || !strings.Contains(err.Error(), "ADMIN_EMAILS must be e-mail addresses separated by commas") {
			t.Errorf("ADMIN_EMAILS=%q: %v, want it refused", value, err)
		}
	}
}

// legacyToken signs a raw claims payload as session.Sign does.
func legacyToken(key []byte, payload string) string {
	body := "v1." + base64.RawURLEncoding.EncodeToString([]byte(payload))
	h := hmac.New(sha256.New, key)
	h.Write([]byte(body))
	return body + "." + base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
