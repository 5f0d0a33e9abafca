package http_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/platform/testenv"
	"prode/scoring/internal/grupos"
	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// grupoPage is GET /api/grupos/{id}/posiciones.
type grupoPage struct {
	Grupo int64 `json:"grupo"`
	store.Pagina
}

func createGrupo(t *testing.T, app *scoringtest.App, as testenv.Player, nombre string) store.Grupo {
	t.Helper()
	res := app.API.Do(http.MethodPost, "/api/grupos", map[string]any{"nombre": nombre}, testenv.As(as))
	if res.Status != http.StatusCreated {
		t.Fatalf("%s creates %q: %d %s", as.Nombre, nombre, res.Status, res.Body)
	}
	var g store.Grupo
	res.Decode(t, &g)
	return g
}

func join(t *testing.T, app *scoringtest.App, as testenv.Player, codigo string) *testenv.Response {
	t.Helper()
	return app.API.Do(http.MethodPost, "/api/grupos/unirse", map[string]string{"codigo": codigo}, testenv.As(as))
}

func want(t *testing.T, what string, res *testenv.Response, status int, code string) {
	t.Helper()
	if res.Status != status || res.ErrorCode() != code {
		t.Errorf("%s: %d %s, want %d %s", what, res.Status, res.Body, status, code)
	}
}

func leagueTable(t *testing.T, app *scoringtest.App, id int64, as testenv.Player, query string) grupoPage {
	t.Helper()
	res := app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d/posiciones%s", id, query), nil, testenv.As(as))
	if res.Status != http.StatusOK {
		t.Fatalf("league table%s as %s: %d %s", query, as.Nombre, res.Status, res.Body)
	}
	var p grupoPage
	res.Decode(t, &p)
	return p
}

// A league from creation to deletion: the creator owns it and gets a code; another player sees
// the invitation signed out and joins with it (twice: still one membership); a non-member is
// refused its details, members and table; only the owner renames it, manages its code and
// deletes it; a revoked code is refused and a regenerated one works; a member leaves, the owner
// removes another and cannot leave.
func TestLeagueLifecycle(t *testing.T) {
	e := scoringtest.New(t)
	e.Match("Grupo A", "ARG", "FRA", time.Now().Add(24*time.Hour))
	ana, beto, caro, dani := e.Player("Ana"), e.Player("Beto"), e.Player("Caro"), e.Player("Dani")
	app := e.NewApp(scoringtest.Options{})

	g := createGrupo(t, app, ana, "  La Oficina  ")
	if g.Nombre != "La Oficina" || !g.EsDueno || g.Miembros != 1 || g.Dueno.ID != ana.ID || g.Codigo == nil || len(*g.Codigo) != 22 {
		t.Fatalf("created league %+v", g)
	}
	if g.Torneo != e.Tournament("test") {
		t.Errorf("league of tournament %d, want the current one %d", g.Torneo, e.Tournament("test"))
	}
	codigo := *g.Codigo

	var inv store.Invitacion
	res := app.API.Do(http.MethodGet, "/api/grupos/invitacion/"+codigo, nil)
	res.Decode(t, &inv)
	if res.Status != http.StatusOK || inv.ID != g.ID || inv.Nombre != "La Oficina" || inv.Dueno.Nombre != "Ana" || inv.Miembros != 1 {
		t.Errorf("invitation signed out: %d %s", res.Status, res.Body)
	}
	if strings.Contains(string(res.Body), "@") {
		t.Errorf("the invitation shows an e-mail address: %s", res.Body)
	}

	for i := range 2 {
		res := join(t, app, beto, codigo)
		var joined store.Grupo
		res.Decode(t, &joined)
		if res.Status != http.StatusOK || joined.ID != g.ID || joined.Miembros != 2 || joined.EsDueno || joined.Codigo != nil {
			t.Errorf("beto joins (%d): %d %s, want 200, 2 members, no code", i+1, res.Status, res.Body)
		}
	}
	var mine []store.GrupoResumen
	app.API.Do(http.MethodGet, "/api/grupos", nil, testenv.As(beto)).Decode(t, &mine)
	if len(mine) != 1 || mine[0].ID != g.ID || mine[0].EsDueno || mine[0].Miembros != 2 || mine[0].MiPosicion == nil || *mine[0].MiPosicion != 1 {
		t.Errorf("beto's leagues: %+v", mine)
	}

	// A non-member: 403 for the details, members and table; unknown leagues are 404.
	for _, path := range []string{"", "/miembros", "/posiciones"} {
		want(t, "caro reads "+path, app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d%s", g.ID, path), nil, testenv.As(caro)),
			http.StatusForbidden, "no_es_miembro")
		want(t, "an unknown league "+path, app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d%s", g.ID+1000, path), nil, testenv.As(ana)),
			http.StatusNotFound, "grupo_no_encontrado")
		want(t, "signed out "+path, app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d%s", g.ID, path), nil),
			http.StatusUnauthorized, "no_autenticado")
	}
	var miembros []store.Miembro
	app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d/miembros", g.ID), nil, testenv.As(beto)).Decode(t, &miembros)
	if len(miembros) != 2 || miembros[0].ID != ana.ID || miembros[1].ID != beto.ID {
		t.Errorf("members %+v, want Ana then Beto", miembros)
	}

	// Only the owner renames, manages the code and deletes: a member or an outsider gets 403.
	for _, p := range []testenv.Player{beto, caro} {
		want(t, p.Nombre+" renames", app.API.Do(http.MethodPatch, fmt.Sprintf("/api/grupos/%d", g.ID), map[string]string{"nombre": "Mía"}, testenv.As(p)),
			http.StatusForbidden, "solo_dueno")
		want(t, p.Nombre+" regenerates the code", app.API.Do(http.MethodPost, fmt.Sprintf("/api/grupos/%d/codigo", g.ID), nil, testenv.As(p)),
			http.StatusForbidden, "solo_dueno")
		want(t, p.Nombre+" revokes the code", app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/codigo", g.ID), nil, testenv.As(p)),
			http.StatusForbidden, "solo_dueno")
		want(t, p.Nombre+" deletes", app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d", g.ID), nil, testenv.As(p)),
			http.StatusForbidden, "solo_dueno")
	}
	want(t, "beto removes ana", app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/miembros/%d", g.ID, ana.ID), nil, testenv.As(beto)),
		http.StatusForbidden, "solo_dueno")

	// Rename: visible characters only, 1 to 60.
	for _, bad := range []string{"", "   ", strings.Repeat("x", 61), "a\u202eb", "línea\nnueva"} {
		want(t, fmt.Sprintf("rename to %q", bad), app.API.Do(http.MethodPatch, fmt.Sprintf("/api/grupos/%d", g.ID), map[string]string{"nombre": bad}, testenv.As(ana)),
			http.StatusBadRequest, "datos_invalidos")
	}
	res = app.API.Do(http.MethodPatch, fmt.Sprintf("/api/grupos/%d", g.ID), map[string]string{"nombre": "Oficina ⚽ 2026"}, testenv.As(ana))
	var renamed store.Grupo
	res.Decode(t, &renamed)
	if res.Status != http.StatusOK || renamed.Nombre != "Oficina ⚽ 2026" {
		t.Errorf("rename: %d %s", res.Status, res.Body)
	}

	// Revoked: no code works; a new one works and the old one stays refused.
	if res := app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/codigo", g.ID), nil, testenv.As(ana)); res.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", res.Status, res.Body)
	}
	want(t, "caro joins with a revoked code", join(t, app, caro, codigo), http.StatusNotFound, "invitacion_invalida")
	want(t, "the revoked code's invitation", app.API.Do(http.MethodGet, "/api/grupos/invitacion/"+codigo, nil), http.StatusNotFound, "invitacion_invalida")
	var owner store.Grupo
	app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d", g.ID), nil, testenv.As(ana)).Decode(t, &owner)
	if owner.Codigo != nil {
		t.Errorf("the owner sees code %q after revoking it", *owner.Codigo)
	}
	var nuevo struct{ Codigo string }
	res = app.API.Do(http.MethodPost, fmt.Sprintf("/api/grupos/%d/codigo", g.ID), nil, testenv.As(ana))
	res.Decode(t, &nuevo)
	if res.Status != http.StatusOK || len(nuevo.Codigo) != 22 || nuevo.Codigo == codigo {
		t.Fatalf("new code: %d %s", res.Status, res.Body)
	}
	want(t, "caro joins with the old code", join(t, app, caro, codigo), http.StatusNotFound, "invitacion_invalida")
	if res := join(t, app, caro, nuevo.Codigo); res.Status != http.StatusOK {
		t.Errorf("caro joins with the new code: %d %s", res.Status, res.Body)
	}
	if res := join(t, app, dani, nuevo.Codigo); res.Status != http.StatusOK {
		t.Errorf("dani joins with the new code: %d %s", res.Status, res.Body)
	}
	want(t, "a made-up code", join(t, app, dani, "no-existe"), http.StatusNotFound, "invitacion_invalida")

	// Leave, removal, and the owner who cannot leave.
	if res := app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/miembros/%d", g.ID, beto.ID), nil, testenv.As(beto)); res.Status != http.StatusNoContent {
		t.Errorf("beto leaves: %d %s", res.Status, res.Body)
	}
	want(t, "beto reads after leaving", app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d/posiciones", g.ID), nil, testenv.As(beto)),
		http.StatusForbidden, "no_es_miembro")
	if res := app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/miembros/%d", g.ID, caro.ID), nil, testenv.As(ana)); res.Status != http.StatusNoContent {
		t.Errorf("ana removes caro: %d %s", res.Status, res.Body)
	}
	want(t, "caro reads after being removed", app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d", g.ID), nil, testenv.As(caro)),
		http.StatusForbidden, "no_es_miembro")
	want(t, "ana removes caro again", app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/miembros/%d", g.ID, caro.ID), nil, testenv.As(ana)),
		http.StatusNotFound, "no_encontrado")
	want(t, "ana leaves her own league", app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/miembros/%d", g.ID, ana.ID), nil, testenv.As(ana)),
		http.StatusConflict, "dueno_no_puede_salir")
	if p := leagueTable(t, app, g.ID, ana, ""); p.Total != 2 || p.Grupo != g.ID {
		t.Errorf("the table after a leave and a removal: %d rows of league %d, want 2 of %d", p.Total, p.Grupo, g.ID)
	}

	// Delete.
	if res := app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d", g.ID), nil, testenv.As(ana)); res.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.Status, res.Body)
	}
	want(t, "the deleted league", app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d", g.ID), nil, testenv.As(ana)),
		http.StatusNotFound, "grupo_no_encontrado")
	app.API.Do(http.MethodGet, "/api/grupos", nil, testenv.As(dani)).Decode(t, &mine)
	if len(mine) != 0 {
		t.Errorf("dani's leagues after the delete: %+v", mine)
	}
	if got := app.Metric(t, "prode_leagues_created_total"); got != 1 {
		t.Errorf("leagues created counted %v, want 1", got)
	}
	if got := app.Metric(t, "prode_league_joins_total"); got != 3 {
		t.Errorf("joins counted %v, want 3 (beto once, caro, dani)", got)
	}
	if got := app.Metric(t, "prode_league_joins_refused_total", "reason", "invitacion_invalida"); got != 3 {
		t.Errorf("refused joins counted %v, want 3", got)
	}
}

// The league's table is the main table's rows of its members: the same points, in the main
// table's order, ranked within the league (competition ranking); a member without points yet
// follows at the rank of the league's zeros; pages like /api/posiciones; a result entered later
// shows in the league's table at the main table's new version.
func TestLeagueTableMatchesTheMainTable(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e) // zoe 10 (exact), beto 10, caro 8, ale 0
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)
	g := createGrupo(t, app, tb.caro, "Amigos")
	for _, p := range []testenv.Player{tb.beto, tb.ale} {
		if res := join(t, app, p, *g.Codigo); res.Status != http.StatusOK {
			t.Fatalf("%s joins: %d %s", p.Nombre, res.Status, res.Body)
		}
	}
	main := pagina(t, app, "")
	league := leagueTable(t, app, g.ID, tb.ale, "")
	if league.Version != main.Version || league.Torneo != main.Torneo || league.Grupo != g.ID {
		t.Errorf("league page of version %d tournament %d league %d, main table's %d %d", league.Version, league.Torneo, league.Grupo, main.Version, main.Torneo)
	}
	equalRows(t, "league table", withoutMovement(league.Posiciones), []store.Posicion{
		row(tb.beto, 1, 10, 0, 2), row(tb.caro, 2, 8, 0, 0), row(tb.ale, 3, 0, 0, 0)})
	points := map[int64]int64{}
	for _, r := range main.Posiciones {
		points[r.ID] = r.Puntaje
	}
	for _, r := range league.Posiciones {
		if points[r.ID] != r.Puntaje {
			t.Errorf("%s has %d points in the league, %d in the main table", r.Nombre, r.Puntaje, points[r.ID])
		}
	}

	// Every column a snapshot row shares with the main table's rows reaches the league's: bonus
	// points, written here straight into the totals and ranked into a new snapshot.
	e.Exec(`UPDATE scoring.totales_torneo SET bonus = 3 WHERE jugador_id = $1`, tb.caro.ID)
	rebuild := func() {
		t.Helper()
		if err := app.Standings.Rebuild(context.Background(), []int64{main.Torneo}); err != nil {
			t.Fatal(err)
		}
	}
	rebuild()
	for _, r := range leagueTable(t, app, g.ID, tb.caro, "?por_pagina=50").Posiciones {
		if want := map[bool]int64{true: 3}[r.ID == tb.caro.ID]; r.Bonus != want {
			t.Errorf("%s's bonus in the league's table: %d, want %d", r.Nombre, r.Bonus, want)
		}
	}
	e.Exec(`UPDATE scoring.totales_torneo SET bonus = 0`)
	rebuild()

	// A member who registered after the snapshot: no points, at the rank of the zeros.
	nuevo := e.Player("Nuevo")
	if res := join(t, app, nuevo, *g.Codigo); res.Status != http.StatusOK {
		t.Fatalf("nuevo joins: %d %s", res.Status, res.Body)
	}
	equalRows(t, "league table with a newcomer", withoutMovement(leagueTable(t, app, g.ID, tb.caro, "").Posiciones), []store.Posicion{
		row(tb.beto, 1, 10, 0, 2), row(tb.caro, 2, 8, 0, 0), row(tb.ale, 3, 0, 0, 0), row(nuevo, 3, 0, 0, 0)})
	var mine []store.GrupoResumen
	app.API.Do(http.MethodGet, "/api/grupos", nil, testenv.As(tb.caro)).Decode(t, &mine)
	if len(mine) != 1 || mine[0].MiPosicion == nil || *mine[0].MiPosicion != 2 || mine[0].Miembros != 4 || !mine[0].EsDueno {
		t.Errorf("caro's leagues %+v, want one she owns, 4 members, her rank 2", mine)
	}

	// Pages: two rows a page.
	p2 := leagueTable(t, app, g.ID, tb.caro, "?pagina=2&por_pagina=2")
	equalRows(t, "page 2", withoutMovement(p2.Posiciones), []store.Posicion{row(tb.ale, 3, 0, 0, 0), row(nuevo, 3, 0, 0, 0)})
	if p2.Total != 4 || p2.Pagina.Pagina != 2 || p2.PorPagina != 2 {
		t.Errorf("page 2: total %d pagina %d por_pagina %d", p2.Total, p2.Pagina.Pagina, p2.PorPagina)
	}
	if p9 := leagueTable(t, app, g.ID, tb.caro, "?pagina=9"); len(p9.Posiciones) != 0 || p9.Total != 4 {
		t.Errorf("past the last page: %d rows, total %d", len(p9.Posiciones), p9.Total)
	}
	want(t, "por_pagina=101", app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d/posiciones?por_pagina=101", g.ID), nil, testenv.As(tb.caro)),
		http.StatusBadRequest, "datos_invalidos")

	// A new result: ale's exact guess puts ale first, at the main table's new version.
	m := e.Match("Grupo C", "ARG", "MAR", time.Now().Add(-time.Hour))
	e.Predict(tb.ale, m, 3, 0)
	e.SetResult(m, scoringtest.Result{GolesLocal: 3, GolesVisitante: 0})
	app.Score(t)
	after := leagueTable(t, app, g.ID, tb.beto, "")
	if after.Version <= league.Version || after.Version != pagina(t, app, "").Version {
		t.Errorf("after the result the league is at version %d (before %d), the main table at %d", after.Version, league.Version, pagina(t, app, "").Version)
	}
	equalRows(t, "league table after a result", withoutMovement(after.Posiciones), []store.Posicion{
		row(tb.ale, 1, 10, 1, 1), row(tb.beto, 1, 10, 0, 2), row(tb.caro, 3, 8, 0, 0), row(nuevo, 4, 0, 0, 0)})
}

func withoutMovement(rows []store.Posicion) []store.Posicion {
	for i := range rows {
		rows[i].PosicionAnterior = nil
	}
	return rows
}

// League pages are kept in the process and in Redis under the snapshot and the league's
// version: a second read comes from the process, another replica's first read from Redis, a
// join (a new league version) is seen at once by both; with Redis unreachable the table is
// served from PostgreSQL.
func TestLeagueTableCache(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e)
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)
	g := createGrupo(t, app, tb.zoe, "Cache")
	leagueTable(t, app, g.ID, tb.zoe, "")
	leagueTable(t, app, g.ID, tb.zoe, "")
	if local := app.Metric(t, "prode_league_table_requests_total", "result", "local"); local != 1 {
		t.Errorf("pages from the process's memory %v, want 1", local)
	}
	redisURL, _ := testenv.Redis(t)
	replica := e.NewAppOn(redisURL, app.Prefix, scoringtest.Options{}) // the same Redis keys
	leagueTable(t, replica, g.ID, tb.zoe, "")
	if hits := replica.Metric(t, "prode_league_table_requests_total", "result", "hit"); hits != 1 {
		t.Errorf("another replica's Redis hits %v, want 1", hits)
	}
	join(t, app, tb.caro, *g.Codigo)
	for _, a := range []*scoringtest.App{app, replica} {
		if p := leagueTable(t, a, g.ID, tb.zoe, ""); p.Total != 2 {
			t.Errorf("right after a join the table has %d rows, want 2", p.Total)
		}
	}

	down := e.NewAppOn("redis://"+freePort(t)+"/0", "unreachable:", scoringtest.Options{})
	for range 3 {
		p := leagueTable(t, down, g.ID, tb.caro, "")
		if p.Total != 2 || p.Posiciones[0].ID != tb.zoe.ID {
			t.Errorf("without Redis: %+v", p)
		}
	}
	if errs := down.Metric(t, "prode_league_table_requests_total", "result", "error"); errs != 3 {
		t.Errorf("cache errors counted %v, want 3", errs)
	}
}

// A league's table and members check the session in the query that checks the membership (their
// routes verify only the token's signature): a session ended with 'Salir' is refused with 401,
// even for a page its player read a moment before and the process still holds. No consumer runs
// here, so the process hears no change and remembers no access: it asks PostgreSQL every time
// (TestLeagueReadsHearWhatEndsAccess is the replica that listens).
func TestLeagueReadsRefuseAnEndedSession(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e)
	app := e.NewApp(scoringtest.Options{})
	g := createGrupo(t, app, tb.zoe, "Sesiones")
	leagueTable(t, app, g.ID, tb.zoe, "")
	leagueTable(t, app, g.ID, tb.zoe, "")
	if local := app.Metric(t, "prode_league_access_checks_total", "source", "local"); local != 0 {
		t.Errorf("%v access checks answered from memory by a replica that does not listen, want 0", local)
	}
	if _, err := e.Admin.Exec(context.Background(), `DELETE FROM players.sesiones WHERE jugador_id = $1`, tb.zoe.ID); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/posiciones", "/miembros", "/posiciones?pagina=2"} {
		res := app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d%s", g.ID, path), nil, testenv.As(tb.zoe))
		want(t, "an ended session reads "+path, res, http.StatusUnauthorized, "no_autenticado")
	}
	// Refused before anything about the league is told: a league that does not exist too.
	res := app.API.Do(http.MethodGet, "/api/grupos/999999/posiciones", nil, testenv.As(tb.zoe))
	want(t, "an ended session reads a league that does not exist", res, http.StatusUnauthorized, "no_autenticado")
	// A token that is not ours never reaches the query.
	forged := &http.Cookie{Name: session.CookieName, Value: "forged"}
	res = app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d/posiciones", g.ID), nil, testenv.WithCookie(forged))
	want(t, "a forged token reads the table", res, http.StatusUnauthorized, "no_autenticado")
}

// The maximums: a player in GRUPOS_MAX_POR_JUGADOR leagues can neither create nor join another;
// a league with GRUPOS_MAX_MIEMBROS members takes no more. Concurrent joins never pass either.
func TestLeagueLimits(t *testing.T) {
	e := scoringtest.New(t)
	e.Match("Grupo A", "ARG", "FRA", time.Now().Add(24*time.Hour))
	app := e.NewApp(scoringtest.Options{Grupos: store.Limites{PorJugador: 2, Miembros: 3}})
	ana, beto, caro, dani := e.Player("Ana"), e.Player("Beto"), e.Player("Caro"), e.Player("Dani")

	g1 := createGrupo(t, app, ana, "Uno")
	createGrupo(t, app, ana, "Dos")
	res := app.API.Do(http.MethodPost, "/api/grupos", map[string]string{"nombre": "Tres"}, testenv.As(ana))
	want(t, "ana's third league", res, http.StatusConflict, "demasiados_grupos")
	if !strings.Contains(string(res.Body), "Ya estás en 2 grupos, el máximo.") {
		t.Errorf("the refusal says %s", res.Body)
	}
	g3 := createGrupo(t, app, beto, "De Beto")
	want(t, "ana joins a third league", join(t, app, ana, *g3.Codigo), http.StatusConflict, "demasiados_grupos")

	join(t, app, beto, *g1.Codigo)
	join(t, app, caro, *g1.Codigo)
	res = join(t, app, dani, *g1.Codigo)
	want(t, "a fourth member", res, http.StatusConflict, "grupo_lleno")
	if !strings.Contains(string(res.Body), "El grupo llegó al máximo de 3 integrantes.") {
		t.Errorf("the refusal says %s", res.Body)
	}
	if res := join(t, app, caro, *g1.Codigo); res.Status != http.StatusOK {
		t.Errorf("a member of a full league joins again: %d %s", res.Status, res.Body)
	}
	// A place freed is a place taken.
	app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/miembros/%d", g1.ID, caro.ID), nil, testenv.As(caro))
	if res := join(t, app, dani, *g1.Codigo); res.Status != http.StatusOK {
		t.Errorf("dani joins after caro left: %d %s", res.Status, res.Body)
	}
	if got := app.Metric(t, "prode_league_joins_refused_total", "reason", "grupo_lleno"); got != 1 {
		t.Errorf("refused as full counted %v, want 1", got)
	}
}

func TestLeagueLimitsHoldUnderConcurrentJoins(t *testing.T) {
	e := scoringtest.New(t)
	e.Match("Grupo A", "ARG", "FRA", time.Now().Add(24*time.Hour))
	app := e.NewApp(scoringtest.Options{Grupos: store.Limites{PorJugador: 3, Miembros: 5}})
	owner := e.Player("Dueña")
	g := createGrupo(t, app, owner, "Carrera")
	players := make([]testenv.Player, 12)
	for i := range players {
		players[i] = e.Player(fmt.Sprintf("Jugador %d", i))
	}
	// Twelve players at once for four places.
	statuses := make([]int, len(players))
	var wg sync.WaitGroup
	for i, p := range players {
		wg.Go(func() { statuses[i] = join(t, app, p, *g.Codigo).Status })
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		if s == http.StatusOK {
			ok++
		} else if s != http.StatusConflict {
			t.Errorf("a concurrent join answered %d", s)
		}
	}
	var miembros int64
	if err := e.Admin.QueryRow(context.Background(), `SELECT count(*) FROM scoring.grupo_miembros WHERE grupo_id = $1`, g.ID).Scan(&miembros); err != nil {
		t.Fatal(err)
	}
	if ok != 4 || miembros != 5 {
		t.Errorf("%d joins accepted, %d members; want 4 and 5 (the maximum)", ok, miembros)
	}
	var got store.Grupo
	app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d", g.ID), nil, testenv.As(owner)).Decode(t, &got)
	if got.Miembros != 5 {
		t.Errorf("the league says %d members, want 5", got.Miembros)
	}

	// One player joining six leagues at once, with room for two more (already in one).
	joiner := players[0]
	if statuses[0] != http.StatusOK {
		joiner = e.Player("Otro")
		join(t, app, joiner, *createGrupo(t, app, e.Player("X"), "X").Codigo)
	}
	codes := make([]string, 6)
	for i := range codes {
		codes[i] = *createGrupo(t, app, e.Player(fmt.Sprintf("Dueño %d", i)), fmt.Sprintf("Liga %d", i)).Codigo
	}
	for _, c := range codes {
		wg.Go(func() { join(t, app, joiner, c) })
	}
	wg.Wait()
	var ligas int64
	if err := e.Admin.QueryRow(context.Background(), `SELECT count(*) FROM scoring.grupo_miembros WHERE jugador_id = $1`, joiner.ID).Scan(&ligas); err != nil {
		t.Fatal(err)
	}
	if ligas != 3 {
		t.Errorf("the player is in %d leagues after concurrent joins, want 3 (the maximum)", ligas)
	}
}

// A session that sends too many unknown codes is refused with 429 before its next code is even
// looked at, a valid one included; another session is not affected.
func TestUnknownCodesAreLimitedPerSession(t *testing.T) {
	e := scoringtest.New(t)
	e.Match("Grupo A", "ARG", "FRA", time.Now().Add(24*time.Hour))
	app := e.NewApp(scoringtest.Options{GuessLimit: ratelimit.New(grupos.GuessesPerHour/3600.0, 3)})
	ana, beto := e.Player("Ana"), e.Player("Beto")
	g := createGrupo(t, app, ana, "Privado")
	for i := range 3 {
		want(t, fmt.Sprintf("guess %d", i+1), join(t, app, beto, fmt.Sprintf("adivinanza%012d", i)), http.StatusNotFound, "invitacion_invalida")
	}
	res := join(t, app, beto, *g.Codigo)
	want(t, "a valid code after three guesses", res, http.StatusTooManyRequests, "demasiadas_solicitudes")
	if res.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	if got := app.Metric(t, "prode_league_joins_refused_total", "reason", "demasiadas_solicitudes"); got != 1 {
		t.Errorf("refused for guessing counted %v, want 1", got)
	}
	caro := e.Player("Caro")
	if res := join(t, app, caro, *g.Codigo); res.Status != http.StatusOK {
		t.Errorf("another session joins: %d %s", res.Status, res.Body)
	}
}

// The leagues' writes count against the session's write limit (WRITE_RATE, WRITE_BURST): past
// the burst a write is refused with 429 and changes nothing, reads are not limited, and another
// session keeps its own allowance.
func TestLeagueWritesCountAgainstTheSessionsWriteLimit(t *testing.T) {
	e := scoringtest.New(t)
	e.Match("Grupo A", "ARG", "FRA", time.Now().Add(24*time.Hour))
	app := e.NewApp(scoringtest.Options{WriteLimit: ratelimit.New(0.001, 3)})
	ana, beto := e.Player("Ana"), e.Player("Beto")
	// Three writes: the burst.
	g := createGrupo(t, app, ana, "Limitado")
	app.API.Do(http.MethodPatch, fmt.Sprintf("/api/grupos/%d", g.ID), map[string]string{"nombre": "Dos"}, testenv.As(ana))
	app.API.Do(http.MethodPost, fmt.Sprintf("/api/grupos/%d/codigo", g.ID), nil, testenv.As(ana))
	res := app.API.Do(http.MethodPatch, fmt.Sprintf("/api/grupos/%d", g.ID), map[string]string{"nombre": "Cuatro"}, testenv.As(ana))
	want(t, "a fourth write", res, http.StatusTooManyRequests, "demasiadas_solicitudes")
	var got store.Grupo
	if res := app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d", g.ID), nil, testenv.As(ana)); res.Status != http.StatusOK {
		t.Fatalf("a read past the write limit: %d %s", res.Status, res.Body)
	} else {
		res.Decode(t, &got)
	}
	if got.Nombre != "Dos" {
		t.Errorf("the league is named %q after a refused rename, want Dos", got.Nombre)
	}
	if res := join(t, app, beto, *got.Codigo); res.Status != http.StatusOK {
		t.Errorf("another session joins: %d %s", res.Status, res.Body)
	}
}
