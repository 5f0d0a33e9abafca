package http

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/platform/testenv"
	"prode/players/internal/displayname"
	"prode/players/internal/identity"
	"prode/players/internal/players"
	"prode/players/internal/store"
)

// FuzzSesionBody: the body of POST /api/sesion. No input panics; refusals are 4xx
// *apierror.Error; an accepted code is non-empty and at most 4096 bytes.
// Seeds: testdata/fuzz/FuzzSesionBody (NUL and other control or invisible characters from
// seed-11 on).
func FuzzSesionBody(f *testing.F) {
	gin.SetMode(gin.ReleaseMode)
	f.Fuzz(func(t *testing.T, body []byte) {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest("POST", "/api/sesion", bytes.NewReader(body))
		c.Request.Header.Set("Content-Type", "application/json")
		in, err := decodeSesion(c)
		if err != nil {
			testenv.ClientError(t, err, body)
			return
		}
		if in.Code == "" || len(in.Code) > 4096 {
			t.Fatalf("%q accepted with a code of %d bytes", body, len(in.Code))
		}
	})
}

// FuzzJugadorBody: the body of POST /api/jugadores, through the players service's Register
// for the session's own address, on a store that refuses what PostgreSQL refuses in text. No
// input panics nor becomes a 5xx (a NUL in the name did: PostgreSQL refused it); refusals are
// 4xx *apierror.Error; an accepted name is what displayname.Check makes of it.
// Seeds: testdata/fuzz/FuzzJugadorBody (NUL, controls, bidi overrides, zero-width and other
// invisible characters from seed-08 on).
func FuzzJugadorBody(f *testing.F) {
	f.Fuzz(func(t *testing.T, body []byte) {
		var in jugadorEntrada
		if err := testenv.DecodeBody(body, &in, httpserver.MaxBody); err != nil {
			testenv.ClientError(t, err, body)
			return
		}
		if len(in.Nombre)+len(in.Email) > httpserver.MaxBody {
			t.Fatalf("%q accepted with %d bytes of fields", body, len(in.Nombre)+len(in.Email))
		}
		st := &textStore{nombre: "Ana"}
		svc := players.New(nil, nil, st, testenv.SessionKey, time.Hour, session.NewAdmins([]string{"admin@prode.test"}), nil)
		j, err := svc.Register(context.Background(), session.Claims{SessionID: "s", PlayerID: 1, Email: "ana@prode.test"}, in.Nombre, "ana@prode.test")
		if err != nil {
			testenv.ClientError(t, err, body)
			return
		}
		if want, err := displayname.Check(in.Nombre); err != nil || j.Nombre != want || st.nombre != want {
			t.Fatalf("%q accepted as %q (stored %q; the rules say %q, %v)", body, j.Nombre, st.nombre, want, err)
		}
	})
}

// FuzzSignInName: the name Google (or the dev chooser) gives at POST /api/sesion, through the
// players service's SignIn on a store that refuses what PostgreSQL refuses in text. A sign-in
// never fails over a name, and the name stored passes displayname.Check unchanged, so that the
// web app's POST /api/jugadores right after it passes too.
// Seeds: testdata/fuzz/FuzzSignInName.
func FuzzSignInName(f *testing.F) {
	f.Fuzz(func(t *testing.T, nombre string) {
		st := &textStore{}
		who := identity.Identity{Subject: "sub", Email: "ana@prode.test", Nombre: nombre}
		svc := players.New(exchangerFunc(func() string { return "id-token" }), verifierFunc(func() identity.Identity { return who }),
			st, testenv.SessionKey, time.Hour, session.NewAdmins([]string{"admin@prode.test"}), nil)
		j, token, _, err := svc.SignIn(context.Background(), "code")
		if err != nil || token == "" {
			t.Fatalf("sign-in with the name %q: %v", nombre, err)
		}
		if checked, err := displayname.Check(j.Nombre); err != nil || checked != j.Nombre || utf8.RuneCountInString(j.Nombre) > displayname.MaxRunes {
			t.Fatalf("the name %q was stored as %q, which a player could not send back (%v)", nombre, j.Nombre, err)
		}
	})
}

// textStore is players.Store in memory for one player, refusing in text what PostgreSQL
// refuses (NUL, bytes that are not UTF-8) with an error that is not an *apierror.Error, as pgx
// does: the service would answer it with 500.
type textStore struct{ nombre string }

var errPostgresText = errors.New(`ERROR: invalid byte sequence for encoding "UTF8": 0x00 (SQLSTATE 22021)`)

func pgText(s string) error {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return errPostgresText
	}
	return nil
}

func (s *textStore) SignIn(_ context.Context, subject, email, nombre, sessionID string, _ time.Time) (store.Player, error) {
	for _, v := range []string{subject, email, nombre, sessionID} {
		if err := pgText(v); err != nil {
			return store.Player{}, err
		}
	}
	s.nombre = nombre
	return store.Player{ID: 1, Email: email, Nombre: nombre}, nil
}

func (s *textStore) Player(context.Context, int64) (store.Player, error) {
	return store.Player{ID: 1, Email: "ana@prode.test", Nombre: s.nombre}, nil
}

func (s *textStore) Rename(_ context.Context, id int64, nombre string) (store.Player, error) {
	if err := pgText(nombre); err != nil {
		return store.Player{}, err
	}
	s.nombre = nombre
	return store.Player{ID: id, Email: "ana@prode.test", Nombre: nombre}, nil
}

func (s *textStore) NamesOf(context.Context, []string) ([]string, error) { return nil, nil }
func (s *textStore) EndSession(context.Context, string) error            { return nil }
func (s *textStore) RenewSession(context.Context, string, time.Time) (bool, error) {
	return true, nil
}

type exchangerFunc func() string

func (e exchangerFunc) Exchange(context.Context, string) (string, error) { return e(), nil }

type verifierFunc func() identity.Identity

func (v verifierFunc) Verify(context.Context, string) (identity.Identity, error) { return v(), nil }
