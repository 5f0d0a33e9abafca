package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"prode/platform/events"
	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
)

// leagueRead is GET /api/grupos/{id}/posiciones as p: its status, error code and version.
func leagueRead(app *scoringtest.App, id int64, p testenv.Player) string {
	res := app.API.Do(http.MethodGet, fmt.Sprintf("/api/grupos/%d/posiciones", id), nil, testenv.As(p))
	if res.Status != http.StatusOK {
		return fmt.Sprintf("%d %s", res.Status, res.ErrorCode())
	}
	var page grupoPage
	if err := json.Unmarshal(res.Body, &page); err != nil {
		return err.Error()
	}
	return fmt.Sprintf("200 version %d", page.Version)
}

// endSession ends the player's sessions as players' 'Salir' does: the update and, in the
// same statement, the notification on events.AccessChannel (players' store test checks that
// its statement sends it).
func endSession(t *testing.T, e *scoringtest.Env, p testenv.Player) {
	t.Helper()
	_, err := e.Admin.Exec(context.Background(), `
		WITH cerrada AS (
		    UPDATE players.sesiones SET cerrada = now() WHERE jugador_id = $1 AND cerrada IS NULL RETURNING id
		)
		SELECT pg_notify($2, $3 || id::text) FROM cerrada`, p.ID, events.AccessChannel, events.SessionEndedPrefix)
	if err != nil {
		t.Fatal(err)
	}
}

// A member who reads their league's table again is answered from what the replica remembers
// of their access, without asking PostgreSQL; what ends that access is heard by every replica
// from the statement that makes it: a member removed on another replica, a session ended with
// 'Salir', a new standings snapshot. Each shows on the other replica within moments.
func TestLeagueReadsHearWhatEndsAccess(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e)
	app := e.NewApp(scoringtest.Options{})
	redisURL, _ := testenv.Redis(t)
	replica := e.NewAppOn(redisURL, app.Prefix, scoringtest.Options{})
	scoringtest.Go(t, app.Consumer.Run)
	scoringtest.Go(t, replica.Consumer.Run)

	g := createGrupo(t, app, tb.zoe, "Escuchan")
	for _, p := range []testenv.Player{tb.beto, tb.caro} {
		if res := join(t, app, p, *g.Codigo); res.Status != http.StatusOK {
			t.Fatalf("%s joins: %d %s", p.Nombre, res.Status, res.Body)
		}
	}
	// Once the replica listens (and has heard the snapshot its consumers built at start), reads of
	// a member it remembers ask PostgreSQL nothing.
	scoringtest.Eventually(t, 5*time.Second, func() string {
		for _, p := range []testenv.Player{tb.zoe, tb.beto, tb.caro} {
			leagueRead(replica, g.ID, p)
		}
		before := replica.Metric(t, "prode_league_access_checks_total", "source", "database")
		for range 5 {
			if got := leagueRead(replica, g.ID, tb.caro); got[:3] != "200" {
				return "caro reads: " + got
			}
		}
		if asked := replica.Metric(t, "prode_league_access_checks_total", "source", "database") - before; asked != 0 {
			return fmt.Sprintf("five reads of a remembered member asked PostgreSQL %v times", asked)
		}
		return ""
	})

	// Removed on the other replica.
	start := time.Now()
	if res := app.API.Do(http.MethodDelete, fmt.Sprintf("/api/grupos/%d/miembros/%d", g.ID, tb.caro.ID), nil, testenv.As(tb.zoe)); res.Status != http.StatusNoContent {
		t.Fatalf("zoe removes caro: %d %s", res.Status, res.Body)
	}
	scoringtest.Eventually(t, 2*time.Second, func() string {
		if got := leagueRead(replica, g.ID, tb.caro); got != "403 no_es_miembro" {
			return "caro, removed, reads: " + got
		}
		return ""
	})
	t.Logf("a removal refused on the other replica after %v", time.Since(start))

	// 'Salir'.
	start = time.Now()
	endSession(t, e, tb.beto)
	scoringtest.Eventually(t, 2*time.Second, func() string {
		if got := leagueRead(replica, g.ID, tb.beto); got != "401 no_autenticado" {
			return "beto, signed out, reads: " + got
		}
		return ""
	})
	t.Logf("an ended session refused after %v", time.Since(start))

	// A new result: the remembered access names the snapshot it read; the new one is read.
	old := leagueRead(replica, g.ID, tb.zoe)
	m := e.Match("Grupo B", "ENG", "FRA", scoringtest.NoonDaysAgo(t, 2))
	e.Predict(tb.zoe, m, 1, 0)
	e.SetResult(m, scoringtest.Result{GolesLocal: 1, GolesVisitante: 0})
	scoringtest.Eventually(t, 5*time.Second, func() string {
		if got := leagueRead(replica, g.ID, tb.zoe); got == old {
			return "zoe still reads " + got + " after a new result"
		}
		return ""
	})
}
