package session_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/platform/testenv"
)

// On a route open to everyone (the results, the bonus questions), a request without an open
// session is answered as signed out, whatever its cookie; a signed-in player whose session
// cannot be looked up (PostgreSQL away) gets a 503 in the API's shape, never the signed-out
// page, which would show their results without their predictions.
func TestOptionalSessionNeverPassesForSignedOutWhenItCannotBeChecked(t *testing.T) {
	db := testenv.NewDB(t)
	ana := testenv.SignIn(t, db, "ana@prode.test", "Ana", false)
	beto := testenv.SignIn(t, db, "beto@prode.test", "Beto", false)
	if _, err := db.AdminPool(t).Exec(context.Background(), `UPDATE players.sesiones SET cerrada = now() WHERE jugador_id = $1`, beto.ID); err != nil {
		t.Fatal(err)
	}
	forged := &http.Cookie{Name: session.CookieName, Value: "v1.e30.AAAA"}

	live := db.Pool(t, "scoring")
	// PostgreSQL away: a socket folder where no server listens.
	away, err := pgxpool.New(context.Background(), "postgres://prode@/prode?host="+t.TempDir()+"&connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(away.Close)

	for _, c := range []struct {
		name       string
		pool       *pgxpool.Pool
		cookie     *http.Cookie
		wantStatus int
		wantPlayer int64
		wantCode   string
	}{
		{"no cookie", live, nil, 200, 0, ""},
		{"signed in", live, ana.Cookie, 200, ana.ID, ""},
		{"ended with 'Salir'", live, beto.Cookie, 200, 0, ""},
		{"forged token", live, forged, 200, 0, ""},
		{"no cookie, PostgreSQL away", away, nil, 200, 0, ""},
		{"forged token, PostgreSQL away", away, forged, 200, 0, ""},
		{"signed in, PostgreSQL away", away, ana.Cookie, 503, 0, "servicio_no_disponible"},
	} {
		rec := getOptional(session.NewVerifier(testenv.SessionKey, c.pool), c.cookie)
		var body struct {
			Jugador int64  `json:"jugador"`
			Error   string `json:"error"`
			Mensaje string `json:"mensaje"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Errorf("%s: body %q: %v", c.name, rec.Body, err)
			continue
		}
		if rec.Code != c.wantStatus || body.Jugador != c.wantPlayer || body.Error != c.wantCode {
			t.Errorf("%s: %d %+v, want %d, player %d, code %q", c.name, rec.Code, body, c.wantStatus, c.wantPlayer, c.wantCode)
		}
		if c.wantCode != "" && (body.Mensaje == "" || rec.Header().Get("Retry-After") == "") {
			t.Errorf("%s: no message or Retry-After: %v %+v", c.name, rec.Header(), body)
		}
	}
}

// getOptional asks a route behind verifier.Optional() that names the player it was given.
func getOptional(verifier *session.Verifier, cookie *http.Cookie) *httptest.ResponseRecorder {
	server := httpserver.New(httpserver.Config{Service: "scoring"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	server.Engine.GET("/api/resultados", verifier.Optional(), func(c *gin.Context) {
		claims, _ := session.FromContext(c)
		c.JSON(http.StatusOK, gin.H{"jugador": claims.PlayerID})
	})
	r := httptest.NewRequest("GET", "/api/resultados", nil)
	if cookie != nil {
		r.AddCookie(cookie)
	}
	rec := httptest.NewRecorder()
	server.Engine.ServeHTTP(rec, r)
	return rec
}
