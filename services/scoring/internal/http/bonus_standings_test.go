package http_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// A bonus question's right answer moves the table like a result does: a new standings
// version whose rows carry the points in puntaje and, apart, in bonus (also /api/posiciones/yo);
// a correction to another option moves them to whoever chose it; clearing it takes them away.
func TestBonusPointsReachTheStandings(t *testing.T) {
	e := scoringtest.New(t)
	partido := e.Match("Grupo A", "ARG", "FRA", time.Now().Add(-24*time.Hour))
	ana, beto := e.Player("Ana"), e.Player("Beto")
	e.Predict(ana, partido, 1, 0)
	e.Predict(beto, partido, 1, 0)
	e.SetResult(partido, scoringtest.Result{GolesLocal: 1, GolesVisitante: 0})
	pregunta, ops := e.Question(e.Tournament("test"), 15, "Argentina", "Francia")
	e.Answer(ana, pregunta, ops[0])
	e.Answer(beto, pregunta, ops[1])
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)
	before := pagina(t, app, "")
	equalRows(t, "before the right answer", before.Posiciones, []store.Posicion{row(ana, 1, 10, 1, 1), row(beto, 1, 10, 1, 1)})

	withBonus := func(p store.Posicion, bonus int64) store.Posicion { p.Bonus = bonus; return p }
	e.SetRightAnswer(pregunta, ops[0])
	app.Score(t)
	after := pagina(t, app, "")
	if after.Version <= before.Version {
		t.Errorf("version %d after the right answer, want above %d", after.Version, before.Version)
	}
	equalRows(t, "Argentina right", after.Posiciones, []store.Posicion{withBonus(row(ana, 1, 25, 1, 1), 15), row(beto, 2, 10, 1, 1)})
	var mine store.MiPosicion
	app.API.Do(http.MethodGet, "/api/posiciones/yo", nil, testenv.As(ana)).Decode(t, &mine)
	if mine.Posicion != 1 || mine.Puntaje != 25 || mine.Bonus != 15 {
		t.Errorf("ana's place: %+v, want 1st with 25 points of which 15 bonus", mine)
	}
	res := app.API.Do(http.MethodGet, "/api/posiciones/yo", nil, testenv.As(beto))
	if !containsJSON(res.Body, `"bonus":0`) {
		t.Errorf("beto's place does not say bonus 0: %s", res.Body)
	}

	e.SetRightAnswer(pregunta, ops[1])
	app.Score(t)
	equalRows(t, "corrected to Francia", pagina(t, app, "").Posiciones,
		[]store.Posicion{withBonus(row(beto, 1, 25, 1, 1), 15), row(ana, 2, 10, 1, 1)})

	e.SetRightAnswer(pregunta, ops[0], ops[1])
	app.Score(t)
	equalRows(t, "a tie: both right", pagina(t, app, "").Posiciones,
		[]store.Posicion{withBonus(row(ana, 1, 25, 1, 1), 15), withBonus(row(beto, 1, 25, 1, 1), 15)})

	e.ClearRightAnswer(pregunta)
	app.Score(t)
	equalRows(t, "cleared", pagina(t, app, "").Posiciones, []store.Posicion{row(ana, 1, 10, 1, 1), row(beto, 1, 10, 1, 1)})
}

func containsJSON(body []byte, s string) bool { return strings.Contains(string(body), s) }

// A past tournament's table lists those who played it: a player whose only points there are
// bonus points is among them, with puntaje and bonus equal.
func TestBonusOnlyPlayerIsInAPastTournamentsTable(t *testing.T) {
	e := scoringtest.New(t)
	e.MatchIn("Qatar 2022", "Grupo C", "ARG", "FRA", time.Now().Add(-72*time.Hour))
	e.MatchIn("2026", "Grupo A", "BRA", "CRO", time.Now().Add(-24*time.Hour))
	e.MakeCurrent("2026")
	ana := e.Player("Ana")
	e.Player("Beto") // played nothing of 2022
	qatar := e.Tournament("Qatar 2022")
	pregunta, ops := e.Question(qatar, 7, "Messi", "Mbappé")
	e.Answer(ana, pregunta, ops[1])
	e.SetRightAnswer(pregunta, ops[1])
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)
	want := row(ana, 1, 7, 0, 0)
	want.Bonus = 7
	equalRows(t, "Qatar 2022", pagina(t, app, fmt.Sprintf("?torneo=%d", qatar)).Posiciones, []store.Posicion{want})
}
