package http_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"prode/platform/testenv"
	"prode/scoring/internal/matchpoints"
	"prode/scoring/internal/scoringtest"
)

type puntosDePartido = matchpoints.Pagina

func puntosURL(partido int64, query string) string {
	return fmt.Sprintf("/api/puntos?partido=%d%s", partido, query)
}

func getPuntos(t *testing.T, app *scoringtest.App, url string, as testenv.Player) puntosDePartido {
	t.Helper()
	res := app.API.Do(http.MethodGet, url, nil, testenv.As(as))
	if res.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, res.Status, res.Body)
	}
	if strings.Contains(string(res.Body), "@") {
		t.Fatalf("an e-mail address leaked: %s", res.Body)
	}
	var out puntosDePartido
	res.Decode(t, &out)
	return out
}

// rows writes a page's rows as "name:prediction=points", the signed-in player's marked with *.
func rows(p puntosDePartido) string {
	var out []string
	for _, j := range p.Jugadores {
		own := ""
		if j.Propia {
			own = "*"
		}
		out = append(out, fmt.Sprintf("%s%s:%d-%d=%d", own, j.Nombre, j.GolesLocal, j.GolesVisitante, j.Puntos))
	}
	return strings.Join(out, " ")
}

func counts(p puntosDePartido) string {
	var out []string
	for _, n := range p.PorPuntos {
		out = append(out, fmt.Sprintf("%d:%d", n.Puntos, n.Jugadores))
	}
	return strings.Join(out, " ")
}

// Once a match is played and scored, every signed-in player sees who scored what: each
// player's prediction and points by name, their own row marked, how many scored each number of
// points; a filter by points and pages over the same order. Before the result there is nothing
// to show (409), and signed out nothing at all.
func TestMatchPointsShowWhoScoredWhat(t *testing.T) {
	e := scoringtest.New(t)
	grupo := e.Match("Grupo C", "ARG", "MAR", time.Date(2022, 11, 22, 10, 0, 0, 0, time.UTC))
	otro := e.Match("Grupo D", "ENG", "BRA", time.Date(2022, 11, 30, 19, 0, 0, 0, time.UTC))
	ana, beto, caro, dani, eva, fede := e.Player("ana"), e.Player("beto"), e.Player("caro"), e.Player("dani"), e.Player("eva"), e.Player("fede")
	e.Predict(ana, grupo, 1, 2)  // exact: 10
	e.Predict(beto, grupo, 0, 2) // away win and away goals: 7
	e.Predict(caro, grupo, 2, 1) // 0
	e.Predict(dani, grupo, 0, 0) // 0
	e.Predict(eva, grupo, 1, 0)  // home goals: 2
	e.Predict(fede, otro, 1, 1)  // another match only
	app := e.NewApp(scoringtest.Options{})

	res := app.API.Do(http.MethodGet, puntosURL(grupo, ""), nil, testenv.As(ana))
	if res.Status != http.StatusConflict || res.ErrorCode() != "partido_sin_resultado" || !strings.Contains(string(res.Body), "todavía no tiene resultado") {
		t.Fatalf("before the result: %d %s", res.Status, res.Body)
	}
	e.SetResult(grupo, scoringtest.Result{GolesLocal: 1, GolesVisitante: 2})
	app.Score(t)

	p := getPuntos(t, app, puntosURL(grupo, ""), ana)
	if p.Partido != grupo || p.Pagina != 1 || p.PorPagina != 50 || p.Total != 5 || p.TusPuntos == nil || *p.TusPuntos != 10 {
		t.Fatalf("the first page: %+v", p)
	}
	if got, want := rows(p), "*ana:1-2=10 beto:0-2=7 caro:2-1=0 dani:0-0=0 eva:1-0=2"; got != want {
		t.Fatalf("rows %s, want %s", got, want)
	}
	if got, want := counts(p), "10:1 7:1 2:1 0:2"; got != want {
		t.Fatalf("counts %s, want %s", got, want)
	}

	p = getPuntos(t, app, puntosURL(grupo, "&puntos=0"), beto)
	if got := rows(p); p.Total != 2 || got != "caro:2-1=0 dani:0-0=0" || p.TusPuntos == nil || *p.TusPuntos != 7 {
		t.Fatalf("only those with 0 points: total %d, %s, own %v", p.Total, got, p.TusPuntos)
	}
	p = getPuntos(t, app, puntosURL(grupo, "&puntos=5"), beto)
	if p.Total != 0 || len(p.Jugadores) != 0 || counts(p) != "10:1 7:1 2:1 0:2" {
		t.Fatalf("nobody with 5 points: %+v", p)
	}
	p = getPuntos(t, app, puntosURL(grupo, "&pagina=2&por_pagina=2"), eva)
	if got := rows(p); p.Total != 5 || p.Pagina != 2 || got != "caro:2-1=0 dani:0-0=0" {
		t.Fatalf("page 2 of 2 rows: total %d, %s", p.Total, got)
	}
	p = getPuntos(t, app, puntosURL(grupo, "&pagina=3&por_pagina=2"), eva)
	if got := rows(p); got != "*eva:1-0=2" {
		t.Fatalf("page 3 of 2 rows: %s", got)
	}
	if p = getPuntos(t, app, puntosURL(grupo, "&pagina=99999999&por_pagina=2"), eva); p.Total != 5 || p.Jugadores == nil || len(p.Jugadores) != 0 {
		t.Fatalf("a page past the end: %+v", p)
	}
	// A player who did not predict the match has no points of their own in it.
	if p = getPuntos(t, app, puntosURL(grupo, ""), fede); p.TusPuntos != nil || p.Total != 5 {
		t.Fatalf("without a prediction: %+v", p)
	}

	for _, c := range []testenv.Refusal{
		{URL: "/api/puntos", Status: 400, Code: "datos_invalidos"},
		{URL: "/api/puntos?partido=x", Status: 400, Code: "datos_invalidos"},
		{URL: puntosURL(grupo, "&puntos=11"), Status: 400, Code: "datos_invalidos"},
		{URL: puntosURL(grupo, "&puntos=uno"), Status: 400, Code: "datos_invalidos"},
		{URL: puntosURL(grupo, "&pagina=0"), Status: 400, Code: "datos_invalidos"},
		{URL: puntosURL(grupo, "&por_pagina=101"), Status: 400, Code: "datos_invalidos"},
		{URL: puntosURL(999999, ""), Status: 404, Code: "no_encontrado"},
		{URL: puntosURL(otro, ""), Status: 409, Code: "partido_sin_resultado"},
	} {
		if res := app.API.Do(http.MethodGet, c.URL, nil, testenv.As(ana)); !res.Refuses(c.Status, c.Code) {
			t.Errorf("%s: %d %s, want %d %s", c.URL, res.Status, res.Body, c.Status, c.Code)
		}
	}
	if res := app.API.Do(http.MethodGet, puntosURL(grupo, ""), nil); res.Status != 401 {
		t.Errorf("signed out: %d %s", res.Status, res.Body)
	}

	// Deleting the result takes the points off the page at once, before scoring catches up.
	e.DeleteResult(grupo)
	if res := app.API.Do(http.MethodGet, puntosURL(grupo, ""), nil, testenv.As(ana)); res.Status != 409 {
		t.Fatalf("after the result was deleted: %d %s", res.Status, res.Body)
	}
}

// A match's counts are read once and kept for the configured time (a crowd opening the page
// costs one count), while the rows are always read: a correction shows in them at once. Counts
// are not kept while the match has no points yet, so they show as soon as scoring follows.
func TestMatchPointsCountsAreKeptBriefly(t *testing.T) {
	e := scoringtest.New(t)
	grupo := e.Match("Grupo C", "ARG", "MAR", time.Date(2022, 11, 22, 10, 0, 0, 0, time.UTC))
	ana, beto := e.Player("ana"), e.Player("beto")
	e.Predict(ana, grupo, 1, 0)
	e.Predict(beto, grupo, 2, 2)
	kept := e.NewApp(scoringtest.Options{MatchPointsFreshFor: time.Hour})
	fresh := e.NewApp(scoringtest.Options{})

	e.SetResult(grupo, scoringtest.Result{GolesLocal: 1, GolesVisitante: 0})
	if p := getPuntos(t, kept, puntosURL(grupo, ""), ana); p.Total != 0 || counts(p) != "" {
		t.Fatalf("before scoring: %+v", p)
	}
	kept.Score(t)
	if p := getPuntos(t, kept, puntosURL(grupo, ""), ana); p.Total != 2 || counts(p) != "10:1 0:1" {
		t.Fatalf("once scored: %s", counts(p))
	}

	e.SetResult(grupo, scoringtest.Result{GolesLocal: 2, GolesVisitante: 0}) // ana 7, beto 2
	kept.Score(t)
	p := getPuntos(t, kept, puntosURL(grupo, ""), ana)
	if got := rows(p); got != "*ana:1-0=7 beto:2-2=2" || counts(p) != "10:1 0:1" || *p.TusPuntos != 7 {
		t.Fatalf("after a correction, kept counts and new rows: %s / %s", got, counts(p))
	}
	if p := getPuntos(t, kept, puntosURL(grupo, "&puntos=2"), ana); rows(p) != "beto:2-2=2" {
		t.Fatalf("the filter reads the new points: %s", rows(p))
	}
	if p := getPuntos(t, fresh, puntosURL(grupo, ""), ana); counts(p) != "7:1 2:1" || p.Total != 2 {
		t.Fatalf("a service keeping nothing: %s", counts(p))
	}
}
