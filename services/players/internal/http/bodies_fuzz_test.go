package http

import (
	"bytes"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"prode/platform/httpserver"
	"prode/platform/testenv"
)

// FuzzSesionBody: the body of POST /api/sesion. No input panics; refusals are 4xx
// *apierror.Error; an accepted code is non-empty and at most 4096 bytes.
// Seeds: testdata/fuzz/FuzzSesionBody.
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

// FuzzJugadorBody: the body of POST /api/jugadores. No input panics; refusals are 4xx
// *apierror.Error (the name and e-mail rules are the service's, tested with the database).
// Seeds: testdata/fuzz/FuzzJugadorBody.
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
	})
}
