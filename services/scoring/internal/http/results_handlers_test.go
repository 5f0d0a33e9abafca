package http_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"prode/platform/testenv"
	"prode/platform/wire"
	"prode/scoring/internal/scoringtest"
)

// resultado is a finished match as GET /api/resultados answers it, with the parts whose exact
// JSON the tests check kept raw.
type resultado struct {
	Partido int64 `json:"partido"`
	wire.Encuentro
	Inicio    string          `json:"inicio"`
	Resultado json.RawMessage `json:"resultado"`
	Apuesta   json.RawMessage `json:"apuesta"`
	Puntos    *int            `json:"puntos"`
}

func resultados(t *testing.T, app *scoringtest.App, as ...func(*http.Request)) []resultado {
	t.Helper()
	res := app.API.Do(http.MethodGet, "/api/resultados", nil, as...)
	if res.Status != http.StatusOK {
		t.Fatalf("GET /api/resultados: %d %s", res.Status, res.Body)
	}
	var out []resultado
	res.Decode(t, &out)
	return out
}

// Finished matches, most recent first, with the full score; signed in, each with the player's
// own prediction and points (null where there is none); signed out, never anyone's.
func TestResultadosSignedOutAndSignedIn(t *testing.T) {
	e := scoringtest.New(t)
	grupo := e.Match("Grupo C", "ARG", "MAR", time.Date(2022, 11, 22, 10, 0, 0, 0, time.UTC))
	final := e.Match("Final", "ARG", "FRA", time.Date(2022, 12, 18, 15, 0, 0, 0, time.UTC))
	unplayed := e.Match("Grupo D", "ENG", "BRA", time.Date(2022, 11, 30, 19, 0, 0, 0, time.UTC))
	ana, beto, caro := e.Player("ana"), e.Player("beto"), e.Player("caro")
	e.Predict(ana, grupo, 0, 2)  // away win and away goals: 7
	e.Predict(beto, grupo, 1, 2) // exact: 10
	e.Predict(beto, final, 1, 0) // 2-2 after 90 minutes: 0
	e.Predict(ana, unplayed, 1, 1)
	e.SetResult(grupo, scoringtest.Result{GolesLocal: 1, GolesVisitante: 2})
	e.SetResult(final, scoringtest.Result{GolesLocal: 2, GolesVisitante: 2, GolesLocalAlargue: scoringtest.Int(3), GolesVisitanteAlargue: scoringtest.Int(3),
		PenalesLocal: scoringtest.Int(4), PenalesVisitante: scoringtest.Int(2)})
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)

	out := resultados(t, app)
	if len(out) != 2 || out[0].Partido != final || out[1].Partido != grupo {
		t.Fatalf("signed out: %+v, want the final then the group match (not the unplayed one)", out)
	}
	f := out[0]
	if f.NombreLocal != "Argentina" || f.NombreVisitante != "Francia" || f.BanderaLocal != "ar" || f.BanderaVisitante != "fr" ||
		f.NombreCategoria != "Final" || f.Inicio != "2022-12-18T15:00:00Z" || f.Fecha != "2022-12-18" || f.Hora != "12:00" {
		t.Errorf("final: %+v", f)
	}
	if want := `{"goles_local":2,"goles_visitante":2,"goles_local_alargue":3,"goles_visitante_alargue":3,"penales_local":4,"penales_visitante":2}`; string(f.Resultado) != want {
		t.Errorf("final's score %s, want %s", f.Resultado, want)
	}
	if want := `{"goles_local":1,"goles_visitante":2,"goles_local_alargue":null,"goles_visitante_alargue":null,"penales_local":null,"penales_visitante":null}`; string(out[1].Resultado) != want {
		t.Errorf("group match's score %s, want %s", out[1].Resultado, want)
	}
	for _, r := range out {
		if string(r.Apuesta) != "null" || r.Puntos != nil {
			t.Errorf("signed out, match %d shows apuesta %s puntos %v", r.Partido, r.Apuesta, r.Puntos)
		}
	}

	for _, c := range []struct {
		p                      testenv.Player
		final, grupo           string
		puntosFinal, puntosGrp *int
	}{
		{ana, "null", `{"goles_local":0,"goles_visitante":2}`, nil, scoringtest.Int(7)},
		{beto, `{"goles_local":1,"goles_visitante":0}`, `{"goles_local":1,"goles_visitante":2}`, scoringtest.Int(0), scoringtest.Int(10)},
		{caro, "null", "null", nil, nil},
	} {
		out := resultados(t, app, testenv.As(c.p))
		if len(out) != 2 {
			t.Fatalf("%s: %d matches", c.p.Nombre, len(out))
		}
		check := func(r resultado, apuesta string, puntos *int) {
			if string(r.Apuesta) != apuesta || !samePtr(r.Puntos, puntos) {
				t.Errorf("%s, match %d: apuesta %s puntos %s; want %s and %s", c.p.Nombre, r.Partido, r.Apuesta, ptr(r.Puntos), apuesta, ptr(puntos))
			}
		}
		check(out[0], c.final, c.puntosFinal)
		check(out[1], c.grupo, c.puntosGrp)
	}
}

func samePtr(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func ptr(p *int) string {
	if p == nil {
		return "null"
	}
	b, _ := json.Marshal(*p)
	return string(b)
}
