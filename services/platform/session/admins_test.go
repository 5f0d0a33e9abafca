package session_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/platform/testenv"
)

// Who is an organiser is decided on each request from the verifier's organisers (ADMIN_EMAILS),
// on the real players.sesiones_vigentes: the same live session passes AdminOnly under a list
// that has its address and is refused (403) as soon as a service runs with a list that does
// not, long before the session expires; a session ended with 'Salir' is refused (401) either
// way.
func TestOrganisersAreDecidedOnEveryRequest(t *testing.T) {
	db := testenv.NewDB(t)
	pool := db.Pool(t, "fixtures")
	ana := testenv.SignIn(t, db, "ana@prode.test", "Ana", true)
	put := func(admins []string, p testenv.Player) int {
		t.Helper()
		server := httpserver.New(httpserver.Config{Service: "fixtures"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		verifier := session.NewVerifier(testenv.SessionKey, pool).WithAdmins(session.NewAdmins(admins))
		server.Engine.PUT("/api/partidos/1/resultado", verifier.Required(), session.AdminOnly(), func(c *gin.Context) { c.Status(http.StatusNoContent) })
		r := httptest.NewRequest("PUT", "/api/partidos/1/resultado", nil)
		r.AddCookie(p.Cookie)
		rec := httptest.NewRecorder()
		server.Engine.ServeHTTP(rec, r)
		return rec.Code
	}
	for _, c := range []struct {
		name   string
		admins []string
		want   int
	}{
		{"listed", []string{"ana@prode.test"}, 204},
		{"listed in capitals", []string{" ANA@prode.TEST "}, 204},
		{"removed from the list", []string{"kim@prode.test"}, 403},
		{"no organisers", nil, 403},
		{"listed again", []string{"kim@prode.test", "ana@prode.test"}, 204},
	} {
		if got := put(c.admins, ana); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	if _, err := db.AdminPool(t).Exec(context.Background(), `UPDATE players.sesiones SET cerrada = now() WHERE jugador_id = $1`, ana.ID); err != nil {
		t.Fatal(err)
	}
	if got := put([]string{"ana@prode.test"}, ana); got != 401 {
		t.Errorf("after 'Salir': %d, want 401", got)
	}
}
