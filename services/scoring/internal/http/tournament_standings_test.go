package http_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/standings"
	"prode/scoring/internal/store"
)

// Each tournament has its own table and results: a result of Qatar 2022, entered or corrected
// while 2026 is being played, moves nobody in 2026's table. The current tournament lists every
// player; a past one lists those who played it.
func TestEachTournamentHasItsOwnTable(t *testing.T) {
	e := scoringtest.New(t)
	qatar := e.MatchIn("Qatar 2022", "Grupo C", "ARG", "FRA", time.Now().Add(-72*time.Hour))
	usa := e.MatchIn("2026", "Grupo A", "BRA", "CRO", time.Now().Add(-24*time.Hour))
	e.MakeCurrent("2026")
	ana, beto := e.Player("Ana"), e.Player("Beto")
	e.Predict(ana, qatar, 2, 1)
	e.Predict(beto, usa, 1, 1)
	e.SetResult(qatar, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1})
	e.SetResult(usa, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1})
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)
	current := pagina(t, app, "")
	equalRows(t, "2026 (current)", current.Posiciones, []store.Posicion{row(beto, 1, 10, 1, 1), row(ana, 2, 0, 0, 0)})
	qatarID := e.Tournament("Qatar 2022")
	past := pagina(t, app, fmt.Sprintf("?torneo=%d", qatarID))
	equalRows(t, "Qatar 2022", past.Posiciones, []store.Posicion{row(ana, 1, 10, 1, 1)})
	if current.Torneo != e.Tournament("2026") || past.Torneo != qatarID {
		t.Errorf("the pages name tournaments %d and %d", current.Torneo, past.Torneo)
	}

	// A 2022 correction: 2022's table moves, 2026's does not.
	e.SetResult(qatar, scoringtest.Result{GolesLocal: 0, GolesVisitante: 0})
	app.Score(t)
	equalRows(t, "2026 after a 2022 correction", pagina(t, app, "").Posiciones,
		[]store.Posicion{row(beto, 1, 10, 1, 1), row(ana, 2, 0, 0, 0)})
	equalRows(t, "Qatar 2022 after its correction", pagina(t, app, fmt.Sprintf("?torneo=%d", qatarID)).Posiciones,
		[]store.Posicion{row(ana, 1, 0, 0, 0)})

	var mine store.MiPosicion
	app.API.Do(http.MethodGet, "/api/posiciones/yo", nil, testenv.As(beto)).Decode(t, &mine)
	if mine.Posicion != 1 || mine.Puntaje != 10 {
		t.Errorf("beto's place in 2026: %+v", mine)
	}

	// Results are per tournament too.
	var results []struct{ Partido, Torneo int64 }
	app.API.Do(http.MethodGet, "/api/resultados", nil).Decode(t, &results)
	if len(results) != 1 || results[0].Partido != usa {
		t.Errorf("results of the current tournament: %+v, want only match %d", results, usa)
	}
	app.API.Do(http.MethodGet, fmt.Sprintf("/api/resultados?torneo=%d", qatarID), nil).Decode(t, &results)
	if len(results) != 1 || results[0].Partido != qatar || results[0].Torneo != qatarID {
		t.Errorf("results of Qatar 2022: %+v, want only match %d", results, qatar)
	}

	for _, c := range []struct {
		query  string
		status int
		code   string
	}{{"?torneo=0", 400, "datos_invalidos"}, {"?torneo=dos", 400, "datos_invalidos"}, {"?torneo=999999", 404, "no_encontrado"}} {
		for _, path := range []string{"/api/posiciones", "/api/resultados"} {
			res := app.API.Do(http.MethodGet, path+c.query, nil)
			if res.Status != c.status || res.ErrorCode() != c.code {
				t.Errorf("%s%s: %d %s, want %d %s", path, c.query, res.Status, res.Body, c.status, c.code)
			}
		}
	}
}

// crowd signs up n players, Jugador 1 to n, and scores a match that ended 1-0, which every
// one whose id is a multiple of every predicted right; the app keeps pages in the process as
// production does. It returns the match and the app.
func crowd(t *testing.T, e *scoringtest.Env, n, every int) (int64, *scoringtest.App) {
	m := e.Match("Grupo A", "ARG", "FRA", time.Now().Add(-2*time.Hour))
	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre)
	        SELECT 'sub' || i, 'j' || i || '@example.com', 'Jugador ' || i FROM generate_series(1, $1::integer) i`, n)
	e.Exec(`INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
	        SELECT id, email, $1, 1, 0 FROM players.jugadores WHERE id % $2 = 0`, m, every)
	e.SetResult(m, scoringtest.Result{GolesLocal: 1, GolesVisitante: 0})
	app := e.NewApp(scoringtest.Options{LocalFreshFor: standings.LocalFreshFor})
	app.Score(t)
	return m, app
}

// A player who signs up while the standings are cached is on every page within 2 s, at the
// shared last rank with 0 points, and every page of the table agrees on the player count.
func TestNewPlayerIsOnEveryPageWithinTwoSeconds(t *testing.T) {
	e := scoringtest.New(t)
	_, app := crowd(t, e, 250, 3)
	scoringtest.Go(t, func(ctx context.Context) { app.Standings.Watch(ctx, 500*time.Millisecond) })
	for p := 1; p <= 3; p++ { // cached, in Redis and in the process
		if got := pagina(t, app, fmt.Sprintf("?pagina=%d", p)); got.Total != 250 {
			t.Fatalf("page %d before the sign-up: total %d", p, got.Total)
		}
	}

	nuevo := e.Player("Zoe Nueva")
	signedUp := time.Now()
	scoringtest.Eventually(t, 2*time.Second, func() string {
		var version int64
		for p := 1; p <= 3; p++ {
			got := pagina(t, app, fmt.Sprintf("?pagina=%d", p))
			if got.Total != 251 {
				return fmt.Sprintf("page %d says %d players, want 251", p, got.Total)
			}
			if p > 1 && got.Version != version {
				return fmt.Sprintf("page %d is of version %d, page 1 of %d", p, got.Version, version)
			}
			version = got.Version
			if p == 3 {
				last := got.Posiciones[len(got.Posiciones)-1]
				// 83 players have 10 points (rank 1); the other 167 share rank 84.
				if want := row(nuevo, 84, 0, 0, 0); last != want {
					return fmt.Sprintf("last row of page 3 %+v, want %+v", last, want)
				}
			}
		}
		return ""
	})
	t.Logf("the new player was on every page %v after signing up", time.Since(signedUp).Round(time.Millisecond))
	var mine store.MiPosicion
	if res := app.API.Do(http.MethodGet, "/api/posiciones/yo", nil, testenv.As(nuevo)); res.Status != http.StatusOK {
		t.Fatalf("the new player's place: %d %s", res.Status, res.Body)
	} else {
		res.Decode(t, &mine)
	}
	if want := (store.MiPosicion{Posicion: 84, Pagina: 3}); mine != want {
		t.Errorf("the new player's place %+v, want %+v", mine, want)
	}
}

// With 100,000 players, one who signs up just after a result is on the table's last page within
// 2 s too: the newcomers are found by a range of players' ids, whatever the size of the table.
func TestNewPlayerAfterAResultIsOnTheLastPageWithinTwoSeconds(t *testing.T) {
	e := scoringtest.New(t)
	m, app := crowd(t, e, 100000, 10)
	scoringtest.Go(t, func(ctx context.Context) { app.Standings.Watch(ctx, 500*time.Millisecond) })

	e.SetResult(m, scoringtest.Result{GolesLocal: 2, GolesVisitante: 0}) // a correction: a new table
	app.Score(t)
	nuevo := e.Player("Zoe Nueva")
	signedUp := time.Now()
	scoringtest.Eventually(t, 2*time.Second, func() string {
		var pages [2]store.Pagina
		for i, query := range []string{"?pagina=1", "?pagina=1001"} {
			res := app.API.Do(http.MethodGet, "/api/posiciones"+query, nil)
			if res.Status != http.StatusOK {
				return fmt.Sprintf("GET /api/posiciones%s: %d %s", query, res.Status, res.Body)
			}
			res.Decode(t, &pages[i])
		}
		first, last := pages[0], pages[1]
		if first.Total != 100001 || last.Total != first.Total || last.Version != first.Version {
			return fmt.Sprintf("page 1 says %d players (version %d), the last page %d (version %d); want 100001 in one version",
				first.Total, first.Version, last.Total, last.Version)
		}
		// 10,000 players have 7 points (rank 1); the other 90,001 share rank 10,001.
		if len(last.Posiciones) != 1 || last.Posiciones[0].ID != nuevo.ID || last.Posiciones[0].Posicion != 10001 {
			return fmt.Sprintf("the last page lists %+v, want only %s at rank 10001", last.Posiciones, nuevo.Nombre)
		}
		return ""
	})
	t.Logf("the new player was on the last page %v after signing up", time.Since(signedUp).Round(time.Millisecond))
}

// The movement since the previous matchday: the rank without the last matchday's points.
func TestMovementSincePreviousMatchday(t *testing.T) {
	e := scoringtest.New(t)
	ctx := context.Background()
	day1 := e.Match("Grupo A", "ARG", "FRA", time.Now().Add(-72*time.Hour))
	day2 := e.Match("Grupo A", "CRO", "MAR", time.Now().Add(-24*time.Hour))
	ana, beto := e.Player("Ana"), e.Player("Beto")
	e.Predict(ana, day1, 2, 0)  // exact: 10
	e.Predict(beto, day1, 2, 2) // consolation: 2
	e.Predict(ana, day2, 0, 3)  // nothing: 0
	e.Predict(beto, day2, 1, 0) // exact: 10
	app := e.NewApp(scoringtest.Options{})
	movement := func() map[int64]*int64 {
		t.Helper()
		res := app.API.Do(http.MethodGet, "/api/posiciones", nil)
		var p store.Pagina
		res.Decode(t, &p)
		out := map[int64]*int64{}
		for _, r := range p.Posiciones {
			out[r.ID] = r.PosicionAnterior
		}
		return out
	}

	e.SetResult(day1, scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	app.Score(t)
	if got := movement(); got[ana.ID] != nil || got[beto.ID] != nil {
		t.Errorf("after the first matchday, previous ranks %v %v, want none", got[ana.ID], got[beto.ID])
	}
	e.SetResult(day2, scoringtest.Result{GolesLocal: 1, GolesVisitante: 0})
	app.Score(t)
	equalRows(t, "after the second matchday", pagina(t, app, "").Posiciones,
		[]store.Posicion{row(beto, 1, 12, 1, 1), row(ana, 2, 10, 1, 1)})
	got := movement()
	if got[beto.ID] == nil || *got[beto.ID] != 2 || got[ana.ID] == nil || *got[ana.ID] != 1 {
		t.Errorf("previous ranks beto %v ana %v, want 2 and 1 (beto moved up, ana down)", deref(got[beto.ID]), deref(got[ana.ID]))
	}

	// Each matchday's own table, and its best player.
	zone, _ := time.LoadLocation("America/Argentina/Buenos_Aires")
	var inicio1, inicio2 time.Time
	if err := e.Admin.QueryRow(ctx, `SELECT (SELECT inicio FROM fixtures.partidos WHERE id = $1), (SELECT inicio FROM fixtures.partidos WHERE id = $2)`,
		day1, day2).Scan(&inicio1, &inicio2); err != nil {
		t.Fatal(err)
	}
	fecha1, fecha2 := inicio1.In(zone).Format(time.DateOnly), inicio2.In(zone).Format(time.DateOnly)
	equalRows(t, "the first matchday's table", pagina(t, app, "?fecha="+fecha1).Posiciones,
		[]store.Posicion{row(ana, 1, 10, 1, 1), row(beto, 2, 2, 0, 0)})
	equalRows(t, "the second matchday's table", pagina(t, app, "?fecha="+fecha2).Posiciones,
		[]store.Posicion{row(beto, 1, 10, 1, 1)})
	var fechas store.Fechas
	app.API.Do(http.MethodGet, "/api/posiciones/fechas", nil).Decode(t, &fechas)
	want := []store.Fecha{
		{Fecha: fecha2, Partidos: 1, Empatados: 1, Ganadores: []store.Ganador{{ID: beto.ID, Nombre: "Beto", Puntaje: 10}}},
		{Fecha: fecha1, Partidos: 1, Empatados: 1, Ganadores: []store.Ganador{{ID: ana.ID, Nombre: "Ana", Puntaje: 10}}},
	}
	if fmt.Sprint(fechas.Fechas) != fmt.Sprint(want) {
		t.Errorf("matchdays %+v, want %+v", fechas.Fechas, want)
	}
	if res := app.API.Do(http.MethodGet, "/api/posiciones?fecha=ayer", nil); res.Status != 400 || res.ErrorCode() != "datos_invalidos" {
		t.Errorf("a malformed date: %d %s", res.Status, res.Body)
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// When the organiser makes another tournament current, its table lists every player from the
// next watch round on, even when another reader (the repair loop here) saw the change first.
func TestANewCurrentTournamentListsEveryPlayer(t *testing.T) {
	e := scoringtest.New(t)
	ctx := context.Background()
	qatar := e.MatchIn("Qatar 2022", "Grupo C", "ARG", "FRA", time.Now().Add(-72*time.Hour))
	e.MatchIn("2026", "Grupo A", "BRA", "CRO", time.Now().Add(24*time.Hour))
	ana := e.Player("Ana")
	// More players than the window of newcomers after a snapshot: only a table built anew
	// lists them all.
	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre)
	        SELECT 'sub' || i, 'j' || i || '@example.com', 'Jugador ' || i FROM generate_series(1, 1200) i`)
	e.Predict(ana, qatar, 2, 1)
	e.SetResult(qatar, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1})
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)
	if err := app.Standings.WatchOnce(ctx); err != nil { // knows Qatar 2022 is current
		t.Fatal(err)
	}
	usa := e.Tournament("2026")
	if got := pagina(t, app, fmt.Sprintf("?torneo=%d", usa)); got.Total != 0 {
		t.Fatalf("2026 before it is current: %d players, want none (nobody played it)", got.Total)
	}
	e.MakeCurrent("2026")
	if err := app.Standings.RepairOnce(ctx); err != nil { // sees the change first
		t.Fatal(err)
	}
	if err := app.Standings.WatchOnce(ctx); err != nil {
		t.Fatal(err)
	}
	current := pagina(t, app, "")
	if current.Torneo != usa || current.Total != 1201 || current.Posiciones[0] != row(ana, 1, 0, 0, 0) {
		t.Errorf("2026 once current: tournament %d, %d players, first %+v; want %d, all 1201, Ana first at 0", current.Torneo,
			current.Total, current.Posiciones[0], usa)
	}
	equalRows(t, "Qatar 2022 once past", pagina(t, app, fmt.Sprintf("?torneo=%d", e.Tournament("Qatar 2022"))).Posiciones,
		[]store.Posicion{row(ana, 1, 10, 1, 1)})
}
