package predictions

import (
	"testing"

	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/platform/testenv"
)

// FuzzEntrada: a prediction body as POST/PUT .../apuestas decode and validate it. No input
// panics; refusals are 4xx *apierror.Error; what is accepted names a match and goals 0..99 and
// is the session's own. Seeds: testdata/fuzz/FuzzEntrada.
func FuzzEntrada(f *testing.F) {
	claims := session.Claims{SessionID: "s", PlayerID: 1, Email: "ana@prode.test"}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in Entrada
		if err := testenv.DecodeBody(body, &in, httpserver.MaxBody); err != nil {
			testenv.ClientError(t, err, body)
			return
		}
		partido, local, visitante, err := in.validate(claims)
		if err != nil {
			testenv.ClientError(t, err, body)
			return
		}
		if partido < 1 || local < 0 || local > 99 || visitante < 0 || visitante > 99 {
			t.Fatalf("%q accepted as match %d, %d-%d", body, partido, local, visitante)
		}
	})
}
