package http_test

import (
	"fmt"
	"strings"
	"testing"

	"prode/platform/testenv"
	"prode/predictions/internal/reveal"
)

// The match page's answers, read with the service's own types (the contract checker validates
// their exact shape).
type (
	pagina  = reveal.Pagina
	resumen = reveal.Resumen
)

func pageURL(match int64, query string) string {
	return fmt.Sprintf("/api/apuestas?partido=%d%s", match, query)
}

func summaryURL(match int64) string { return fmt.Sprintf("/api/apuestas/resumen?partido=%d", match) }

// predict stores a prediction straight in the database (players and matches arranged by the
// test, whatever the cut-off), as many times as n, each by a new player named name-i.
func (f *fixture) predict(name string, n int, match int64, local, visitante int) {
	f.t.Helper()
	f.exec(`
		WITH j AS (
		    INSERT INTO players.jugadores (google_sub, email, nombre)
		    SELECT 'test:' || u, u || '@prode.test', nombre
		      FROM (SELECT gen_random_uuid()::text AS u, CASE WHEN $2 = 1 THEN $1 ELSE $1 || '-' || g END AS nombre
		              FROM generate_series(1, $2) g) x
		    RETURNING id, email)
		INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
		SELECT id, email, $3, $4, $5 FROM j`, name, n, match, local, visitante)
}

// lock moves the match's kick-off so that its cut-off passed just now (by less than a minute:
// locked, not settled).
func (f *fixture) lock(match int64) {
	f.exec(`UPDATE fixtures.partidos SET inicio = now() + interval '30 minutes' WHERE id = $1`, match)
}

// Before the lock a player sees only their own prediction: the list is refused and the summary
// has no distribution. After it, everyone's, by name, with the player's own row marked and no
// e-mail address; a finished match is locked whatever its kick-off.
func TestOthersPredictionsShowOnlyOnceTheMatchIsLocked(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	bruno := testenv.SignIn(t, f.db, "bruno@prode.test", "Bruno", false)
	f.api.Do("POST", path(bruno), body(f.match, 3, 1, bruno.Email), testenv.As(bruno))
	f.api.Do("POST", path(ana), body(f.match, 1, 1, ana.Email), testenv.As(ana))

	if res := f.api.Do("GET", pageURL(f.match, ""), nil, testenv.As(ana)); res.Status != 403 || res.ErrorCode() != "prohibido" ||
		!strings.Contains(string(res.Body), "1 hora antes del inicio") || strings.Contains(string(res.Body), "Bruno") {
		t.Fatalf("the list before the lock: %d %s", res.Status, res.Body)
	}
	var s resumen
	res := f.api.Do("GET", summaryURL(f.match), nil, testenv.As(ana))
	res.Decode(t, &s)
	if res.Status != 200 || s.Cerrado || s.Distribucion != nil || s.Mia == nil || s.Mia.GolesLocal != 1 || s.Mia.GolesVisitante != 1 {
		t.Fatalf("the summary before the lock: %d %s", res.Status, res.Body)
	}

	f.lock(f.match)
	var p pagina
	res = f.api.Do("GET", pageURL(f.match, ""), nil, testenv.As(ana))
	res.Decode(t, &p)
	if res.Status != 200 || p.Partido != f.match || p.Pagina != 1 || p.PorPagina != 50 || p.Total != 2 || len(p.Apuestas) != 2 {
		t.Fatalf("the list after the lock: %d %s", res.Status, res.Body)
	}
	if a, b := p.Apuestas[0], p.Apuestas[1]; a.Nombre != "Ana" || !a.Propia || a.GolesLocal != 1 ||
		b.Nombre != "Bruno" || b.Propia || b.GolesLocal != 3 || b.GolesVisitante != 1 {
		t.Fatalf("rows by name, Ana's own marked: %+v", p.Apuestas)
	}
	if strings.Contains(string(res.Body), "@") {
		t.Fatal("an e-mail address leaked")
	}
	res = f.api.Do("GET", summaryURL(f.match), nil, testenv.As(bruno))
	res.Decode(t, &s)
	if d := s.Distribucion; res.Status != 200 || !s.Cerrado || s.Mia == nil || s.Mia.GolesLocal != 3 || d == nil ||
		d.Total != 2 || d.Local != 1 || d.Empate != 1 || d.Visitante != 0 || len(d.Marcadores) != 2 {
		t.Fatalf("the summary after the lock: %d %s", res.Status, res.Body)
	}

	// Played before its cut-off (a result entered early): locked all the same.
	early := f.newMatch(`'ARG', 'FRA', now() + interval '3 days'`)
	f.api.Do("POST", path(bruno), body(early, 0, 2, bruno.Email), testenv.As(bruno))
	f.exec(`INSERT INTO fixtures.resultados (partido_id, goles_local, goles_visitante) VALUES ($1, 0, 2)`, early)
	res = f.api.Do("GET", pageURL(early, ""), nil, testenv.As(ana))
	res.Decode(t, &p)
	if res.Status != 200 || len(p.Apuestas) != 1 || p.Apuestas[0].Nombre != "Bruno" {
		t.Fatalf("a finished match's list: %d %s", res.Status, res.Body)
	}
	res = f.api.Do("GET", summaryURL(early), nil, testenv.As(ana))
	res.Decode(t, &s)
	if res.Status != 200 || !s.Cerrado || s.Mia != nil || s.Distribucion == nil || s.Distribucion.Visitante != 1 {
		t.Fatalf("a finished match's summary, without a prediction of one's own: %d %s", res.Status, res.Body)
	}
}

// Bad requests and unknown matches get the JSON error shape with a Spanish message; signed out,
// nothing is answered.
func TestMatchPredictionsRefuseBadRequests(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	f.lock(f.match)
	for _, c := range []testenv.Refusal{
		{URL: "/api/apuestas", Status: 400, Code: "datos_invalidos"},
		{URL: "/api/apuestas?partido=abc", Status: 400, Code: "datos_invalidos"},
		{URL: "/api/apuestas?partido=0", Status: 400, Code: "datos_invalidos"},
		{URL: "/api/apuestas/resumen", Status: 400, Code: "datos_invalidos"},
		{URL: "/api/apuestas/resumen?partido=-3", Status: 400, Code: "datos_invalidos"},
		{URL: pageURL(f.match, "&pagina=0"), Status: 400, Code: "datos_invalidos"},
		{URL: pageURL(f.match, "&pagina=x"), Status: 400, Code: "datos_invalidos"},
		{URL: pageURL(f.match, "&por_pagina=101"), Status: 400, Code: "datos_invalidos"},
		{URL: pageURL(f.match, "&por_pagina=0"), Status: 400, Code: "datos_invalidos"},
		{URL: "/api/apuestas?partido=999999", Status: 404, Code: "no_encontrado"},
		{URL: "/api/apuestas/resumen?partido=999999", Status: 404, Code: "no_encontrado"},
	} {
		if res := f.api.Do("GET", c.URL, nil, testenv.As(ana)); !res.Refuses(c.Status, c.Code) {
			t.Errorf("%s: %d %s, want %d %s", c.URL, res.Status, res.Body, c.Status, c.Code)
		}
	}
	for _, url := range []string{pageURL(f.match, ""), summaryURL(f.match)} {
		if res := f.api.Do("GET", url, nil); res.Status != 401 || res.ErrorCode() != "no_autenticado" {
			t.Errorf("%s signed out: %d %s", url, res.Status, res.Body)
		}
	}
}

// Pages follow the names in order (ties by who registered first), cover every prediction once,
// and say the total; a page past the end is empty.
func TestMatchPredictionsArePagedByName(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	for _, name := range []string{"Zoe", "Bea", "Mara", "Ciro", "Bea", "Lola", "Abril"} {
		f.predict(name, 1, f.match, 1, 0)
	}
	f.lock(f.match)
	var names []string
	for n := 1; n <= 3; n++ {
		var p pagina
		res := f.api.Do("GET", pageURL(f.match, fmt.Sprintf("&pagina=%d&por_pagina=3", n)), nil, testenv.As(ana))
		res.Decode(t, &p)
		if res.Status != 200 || p.Total != 7 || p.Pagina != n || p.PorPagina != 3 {
			t.Fatalf("page %d: %d %s", n, res.Status, res.Body)
		}
		for _, a := range p.Apuestas {
			names = append(names, a.Nombre)
		}
	}
	if got, want := strings.Join(names, ","), "Abril,Bea,Bea,Ciro,Lola,Mara,Zoe"; got != want {
		t.Fatalf("names over three pages: %s, want %s", got, want)
	}
	var p pagina
	res := f.api.Do("GET", pageURL(f.match, "&pagina=4&por_pagina=3"), nil, testenv.As(ana))
	res.Decode(t, &p)
	if res.Status != 200 || p.Total != 7 || len(p.Apuestas) != 0 || strings.Contains(string(res.Body), "null") {
		t.Fatalf("a page past the end: %d %s", res.Status, res.Body)
	}
}

// The distribution counts home wins, draws and away wins, and names the five most predicted
// scores, the most predicted first (ties by home goals, then away goals).
func TestDistributionOfOutcomesAndScores(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	for _, p := range []struct {
		name      string
		n, gl, gv int
	}{
		{"a", 3, 2, 1}, {"b", 2, 1, 0}, {"c", 2, 0, 0}, {"d", 1, 1, 1}, {"e", 1, 0, 2}, {"f", 1, 3, 3}, {"g", 1, 5, 0},
	} {
		f.predict(p.name, p.n, f.match, p.gl, p.gv)
	}
	other := f.newMatch(`'ARG', 'FRA', now() + interval '30 minutes'`)
	f.predict("h", 4, other, 9, 9) // another match's predictions count only there
	f.lock(f.match)

	var s resumen
	res := f.api.Do("GET", summaryURL(f.match), nil, testenv.As(ana))
	res.Decode(t, &s)
	d := s.Distribucion
	if res.Status != 200 || d == nil || d.Total != 11 || d.Local != 6 || d.Empate != 4 || d.Visitante != 1 {
		t.Fatalf("outcomes: %d %s", res.Status, res.Body)
	}
	var got []string
	for _, m := range d.Marcadores {
		got = append(got, fmt.Sprintf("%d-%d:%d", m.GolesLocal, m.GolesVisitante, m.Jugadores))
	}
	if want := "2-1:3 0-0:2 1-0:2 0-2:1 1-1:1"; strings.Join(got, " ") != want {
		t.Fatalf("most predicted scores %v, want %s", got, want)
	}

	// Nobody predicted: zeros and an empty list, not nulls.
	empty := f.newMatch(`'ARG', 'FRA', now() + interval '10 minutes'`)
	res = f.api.Do("GET", summaryURL(empty), nil, testenv.As(ana))
	if res.Status != 200 || !strings.Contains(string(res.Body), `"distribucion":{"total":0,"local":0,"empate":0,"visitante":0,"marcadores":[]}`) {
		t.Fatalf("a match nobody predicted: %d %s", res.Status, res.Body)
	}
}

// A match locked for over a minute is settled: its distribution is read once and kept, so a
// row written behind the service's back (no route can write after the cut-off) does not show.
// A reschedule changes the cut-off and reads it again; a match locked moments ago is read every
// time, since a write that started before the cut-off may still commit.
func TestSettledDistributionIsReadOnce(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	f.predict("a", 2, f.match, 1, 0)
	f.exec(`UPDATE fixtures.partidos SET inicio = now() - interval '10 minutes' WHERE id = $1`, f.match) // locked 70 minutes ago
	total := func(match int64) (fromSummary, fromPage int) {
		t.Helper()
		var s resumen
		var p pagina
		f.api.Do("GET", summaryURL(match), nil, testenv.As(ana)).Decode(t, &s)
		f.api.Do("GET", pageURL(match, ""), nil, testenv.As(ana)).Decode(t, &p)
		if s.Distribucion == nil {
			t.Fatalf("no distribution for a locked match")
		}
		return s.Distribucion.Total, p.Total
	}
	if s, p := total(f.match); s != 2 || p != 2 {
		t.Fatalf("first read: %d, %d; want 2", s, p)
	}
	f.predict("b", 1, f.match, 0, 0)
	if s, p := total(f.match); s != 2 || p != 2 {
		t.Fatalf("a settled match was read again: %d, %d; want the kept 2", s, p)
	}
	f.exec(`UPDATE fixtures.partidos SET inicio = now() - interval '20 minutes' WHERE id = $1`, f.match)
	if s, p := total(f.match); s != 3 || p != 3 {
		t.Fatalf("after a reschedule: %d, %d; want 3", s, p)
	}

	recent := f.newMatch(`'ARG', 'FRA', now() + interval '59 minutes 30 seconds'`) // locked 30 s ago
	f.predict("c", 1, recent, 2, 2)
	if s, _ := total(recent); s != 1 {
		t.Fatalf("recently locked: %d, want 1", s)
	}
	f.predict("d", 1, recent, 2, 2)
	if s, p := total(recent); s != 2 || p != 2 {
		t.Fatalf("a match locked moments ago was kept: %d, %d; want 2", s, p)
	}
}
