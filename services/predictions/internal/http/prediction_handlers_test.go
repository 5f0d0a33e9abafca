package http_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/platform/testenv"
	"prode/predictions/internal/app"
	"prode/predictions/internal/store"
)

type fixture struct {
	t      *testing.T
	db     *testenv.DB
	api    *testenv.API
	server *httpserver.Server // its Registry holds the business metrics
	match  int64
}

// newFixture starts the predictions handlers on a fresh database, as the service's own role,
// with one match between two known teams that kicks off in two days.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newLimitedFixture(t, nil)
}

func newLimitedFixture(t *testing.T, limit *ratelimit.Limiter) *fixture {
	t.Helper()
	db := testenv.NewDB(t)
	pool := db.Pool(t, "predictions")
	server := httpserver.New(httpserver.Config{Service: "predictions"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	// Settled distributions kept as in production; none kept while locking, so that tests see
	// each write at once (TestSettledDistributionIsReadOnce).
	app.Wire(server, app.Deps{Pool: pool, Sessions: session.NewVerifier(testenv.SessionKey, pool), WriteLimit: limit})
	f := &fixture{t: t, db: db, api: testenv.NewAPI(t, server.Engine), server: server}
	f.exec(`INSERT INTO fixtures.equipos VALUES ('ARG','Argentina','ar'), ('FRA','Francia','fr')`)
	f.match = f.newMatch(`'ARG', 'FRA', now() + interval '2 days'`)
	return f
}

func (f *fixture) exec(sql string, args ...any) {
	f.t.Helper()
	if _, err := f.db.AdminPool(f.t).Exec(context.Background(), sql, args...); err != nil {
		f.t.Fatalf("%s: %v", sql, err)
	}
}

func (f *fixture) newMatch(values string) int64 {
	f.t.Helper()
	var id int64
	err := f.db.AdminPool(f.t).QueryRow(context.Background(), `
		INSERT INTO fixtures.partidos (torneo, numero, categoria, local, visitante, inicio)
		VALUES ('Test', (SELECT coalesce(max(numero), 0) + 1 FROM fixtures.partidos), 'Grupo A', `+values+`) RETURNING id`).Scan(&id)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// stored reads the player's row for the match straight from the database.
func (f *fixture) stored(p testenv.Player, match int64) (rows int, local, visitante int) {
	f.t.Helper()
	err := f.db.AdminPool(f.t).QueryRow(context.Background(), `
		SELECT count(*), coalesce(max(goles_local), -1), coalesce(max(goles_visitante), -1)
		  FROM predictions.apuestas WHERE jugador_id = $1 AND partido_id = $2`, p.ID, match).Scan(&rows, &local, &visitante)
	if err != nil {
		f.t.Fatal(err)
	}
	return
}

func path(p testenv.Player) string { return "/api/jugadores/" + p.Email + "/apuestas" }

func body(match int64, local, visitante int, jugador string) map[string]any {
	return map[string]any{"partido": match, "goles_local": local, "goles_visitante": visitante, "jugador": jugador}
}

func TestCreateListAndUpdateOwnPredictions(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)

	res := f.api.Do("GET", path(ana), nil, testenv.As(ana))
	if res.Status != 200 || strings.TrimSpace(string(res.Body)) != "[]" {
		t.Fatalf("a new player's predictions: %d %s", res.Status, res.Body)
	}
	res = f.api.Do("POST", path(ana), body(f.match, 2, 1, ana.Email), testenv.As(ana))
	var created store.Apuesta
	res.Decode(t, &created)
	if res.Status != 201 || created.Partido != f.match || created.GolesLocal != 2 || created.GolesVisitante != 1 || created.Jugador != ana.Email {
		t.Fatalf("first save: %d %s", res.Status, res.Body)
	}
	// A second POST for the same match updates the same prediction (the specification's
	// client may POST twice); it never makes a second row.
	res = f.api.Do("POST", path(ana), body(f.match, 3, 3, ana.Email), testenv.As(ana))
	var again store.Apuesta
	res.Decode(t, &again)
	if res.Status != 200 || again.ID != created.ID || again.GolesLocal != 3 {
		t.Fatalf("second POST: %d %s", res.Status, res.Body)
	}
	res = f.api.Do("PUT", fmt.Sprintf("%s/%d", path(ana), created.ID), body(f.match, 0, 0, ana.Email), testenv.As(ana))
	if res.Status != 200 {
		t.Fatalf("PUT: %d %s", res.Status, res.Body)
	}
	if rows, l, v := f.stored(ana, f.match); rows != 1 || l != 0 || v != 0 {
		t.Fatalf("stored %d rows, %d-%d; want 1 row, 0-0", rows, l, v)
	}
	var list []store.Apuesta
	f.api.Do("GET", path(ana), nil, testenv.As(ana)).Decode(t, &list)
	if len(list) != 1 || list[0].ID != created.ID || list[0].GolesLocal != 0 {
		t.Fatalf("list after PUT: %+v", list)
	}
}

// anaPredicted signs ana in and saves her 1-0 for the fixture's match.
func (f *fixture) anaPredicted(t *testing.T) (testenv.Player, store.Apuesta) {
	t.Helper()
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	var saved store.Apuesta
	f.api.Do("POST", path(ana), body(f.match, 1, 0, ana.Email), testenv.As(ana)).Decode(t, &saved)
	return ana, saved
}

func TestCutOffIsEnforcedWithTheDatabaseClock(t *testing.T) {
	f := newFixture(t)
	ana, saved := f.anaPredicted(t)

	// Kick-off in exactly one hour: cierre is now, so the write is already too late.
	f.exec(`UPDATE fixtures.partidos SET inicio = now() + interval '1 hour' WHERE id = $1`, f.match)
	for _, try := range []struct {
		method, url string
	}{{"POST", path(ana)}, {"PUT", fmt.Sprintf("%s/%d", path(ana), saved.ID)}} {
		res := f.api.Do(try.method, try.url, body(f.match, 5, 5, ana.Email), testenv.As(ana))
		if res.Status != http.StatusConflict || res.ErrorCode() != "apuesta_cerrada" {
			t.Fatalf("%s at the cut-off: %d %s", try.method, res.Status, res.Body)
		}
		if rows, l, v := f.stored(ana, f.match); rows != 1 || l != 1 || v != 0 {
			t.Fatalf("%s at the cut-off changed the row: %d rows, %d-%d", try.method, rows, l, v)
		}
	}
	// Kick-off in one hour and two seconds: the cut-off is still ahead, the write is taken.
	f.exec(`UPDATE fixtures.partidos SET inicio = now() + interval '1 hour 2 seconds' WHERE id = $1`, f.match)
	res := f.api.Do("POST", path(ana), body(f.match, 4, 4, ana.Email), testenv.As(ana))
	if res.Status != 200 {
		t.Fatalf("just before the cut-off: %d %s", res.Status, res.Body)
	}
	// A suspended match is closed whatever its kick-off, and says why: not the cut-off's message.
	f.exec(`UPDATE fixtures.partidos SET inicio = now() + interval '3 days', suspendido = true WHERE id = $1`, f.match)
	if res = f.api.Do("POST", path(ana), body(f.match, 1, 1, ana.Email), testenv.As(ana)); res.Status != 409 ||
		res.ErrorCode() != "partido_no_apostable" || mensaje(t, res) != "Este partido está suspendido: por ahora no acepta jugadas." {
		t.Fatalf("suspended match: %d %s", res.Status, res.Body)
	}
	unknown := f.newMatch(`NULL, NULL, now() + interval '3 days'`)
	if res = f.api.Do("POST", path(ana), body(unknown, 1, 1, ana.Email), testenv.As(ana)); res.Status != 409 || res.ErrorCode() != "partido_sin_equipos" {
		t.Fatalf("match without teams: %d %s", res.Status, res.Body)
	}
	if res = f.api.Do("POST", path(ana), body(999999, 1, 1, ana.Email), testenv.As(ana)); res.Status != 404 {
		t.Fatalf("unknown match: %d %s", res.Status, res.Body)
	}
}

// A match whose result is in takes no prediction whatever its kick-off (a result entered early,
// or a kick-off moved after the match), and the refusal says it was played: the cut-off's
// message ("hasta 1 hora antes del inicio") would be wrong for a match that kicks off later.
func TestAFinishedMatchIsRefusedWithItsOwnMessage(t *testing.T) {
	f := newFixture(t)
	ana, saved := f.anaPredicted(t)
	f.exec(`INSERT INTO fixtures.resultados (partido_id, goles_local, goles_visitante) VALUES ($1, 2, 2)`, f.match)
	fresh := f.newMatch(`'ARG', 'FRA', now() + interval '3 days'`)
	f.exec(`INSERT INTO fixtures.resultados (partido_id, goles_local, goles_visitante) VALUES ($1, 0, 0)`, fresh)

	for _, try := range []struct {
		name, method, url string
		match             int64
	}{
		{"update with POST", "POST", path(ana), f.match},
		{"update with PUT", "PUT", fmt.Sprintf("%s/%d", path(ana), saved.ID), f.match},
		{"first prediction", "POST", path(ana), fresh},
	} {
		res := f.api.Do(try.method, try.url, body(try.match, 5, 5, ana.Email), testenv.As(ana))
		if res.Status != http.StatusConflict || res.ErrorCode() != "partido_finalizado" ||
			mensaje(t, res) != "Este partido ya se jugó: no acepta más jugadas." {
			t.Errorf("%s on a finished match: %d %s, want 409 partido_finalizado", try.name, res.Status, res.Body)
		}
	}
	if rows, l, v := f.stored(ana, f.match); rows != 1 || l != 1 || v != 0 {
		t.Fatalf("a finished match's prediction changed: %d rows, %d-%d", rows, l, v)
	}
	if rows, _, _ := f.stored(ana, fresh); rows != 0 {
		t.Fatal("a prediction was stored for a finished match")
	}
}

// mensaje is the error body's text for people.
func mensaje(t *testing.T, res *testenv.Response) string {
	t.Helper()
	var e struct {
		Mensaje string `json:"mensaje"`
	}
	res.Decode(t, &e)
	return e.Mensaje
}

func TestIdentityComesFromTheSession(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	bruno := testenv.SignIn(t, f.db, "bruno@prode.test", "Bruno", false)
	res := f.api.Do("POST", path(bruno), body(f.match, 1, 1, bruno.Email), testenv.As(bruno))
	var brunos store.Apuesta
	res.Decode(t, &brunos)

	cases := []struct {
		name, method, url string
		body              any
		opts              []func(*http.Request)
		status            int
	}{
		{"read another's", "GET", path(bruno), nil, []func(*http.Request){testenv.As(ana)}, 403},
		{"post as another in the path", "POST", path(bruno), body(f.match, 9, 9, bruno.Email), []func(*http.Request){testenv.As(ana)}, 403},
		{"post as another in the body", "POST", path(ana), body(f.match, 9, 9, bruno.Email), []func(*http.Request){testenv.As(ana)}, 403},
		{"put another's prediction", "PUT", fmt.Sprintf("%s/%d", path(ana), brunos.ID), body(f.match, 9, 9, ana.Email), []func(*http.Request){testenv.As(ana)}, 404},
		{"put through another's path", "PUT", fmt.Sprintf("%s/%d", path(bruno), brunos.ID), body(f.match, 9, 9, bruno.Email), []func(*http.Request){testenv.As(ana)}, 403},
		{"no session", "POST", path(bruno), body(f.match, 9, 9, bruno.Email), nil, 401},
		{"forged cookie", "POST", path(bruno), body(f.match, 9, 9, bruno.Email),
			[]func(*http.Request){testenv.WithCookie(&http.Cookie{Name: session.CookieName, Value: bruno.Cookie.Value + "x"})}, 401},
		{"cross-site form", "POST", path(bruno), body(f.match, 9, 9, bruno.Email),
			[]func(*http.Request){testenv.As(bruno), testenv.WithHeader("Origin", "https://evil.example")}, 403},
		{"cross-site fetch", "POST", path(bruno), body(f.match, 9, 9, bruno.Email),
			[]func(*http.Request){testenv.As(bruno), testenv.WithHeader("Sec-Fetch-Site", "cross-site")}, 403},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := f.api.Do(c.method, c.url, c.body, c.opts...)
			if res.Status != c.status {
				t.Fatalf("%s %s: %d %s, want %d", c.method, c.url, res.Status, res.Body, c.status)
			}
			if rows, l, v := f.stored(bruno, f.match); rows != 1 || l != 1 || v != 1 {
				t.Fatalf("Bruno's prediction changed: %d rows, %d-%d", rows, l, v)
			}
			if rows, _, _ := f.stored(ana, f.match); rows != 0 {
				t.Fatalf("Ana got a prediction")
			}
		})
	}
	// After 'Salir' the same cookie is refused, and writes change nothing: the write routes
	// check only the token's signature and leave the session to their statement's guard.
	f.exec(`UPDATE players.sesiones SET cerrada = now() WHERE jugador_id = $1`, bruno.ID)
	closed := f.newMatch(`'ARG', 'FRA', now() + interval '30 minutes'`) // past its cut-off
	for _, c := range []struct {
		name, method, url string
		body              any
	}{
		{"read", "GET", path(bruno), nil},
		{"save", "POST", path(bruno), body(f.match, 7, 7, bruno.Email)},
		{"save a new one", "POST", path(bruno), body(f.newMatch(`'ARG', 'FRA', now() + interval '3 days'`), 7, 7, bruno.Email)},
		{"save after the cut-off", "POST", path(bruno), body(closed, 7, 7, bruno.Email)},
		{"save for no match", "POST", path(bruno), body(999999, 7, 7, bruno.Email)},
		{"update", "PUT", fmt.Sprintf("%s/%d", path(bruno), brunos.ID), body(f.match, 7, 7, bruno.Email)},
		{"update another's", "PUT", fmt.Sprintf("%s/%d", path(bruno), brunos.ID+1000), body(f.match, 7, 7, bruno.Email)},
	} {
		res := f.api.Do(c.method, c.url, c.body, testenv.As(bruno))
		if res.Status != 401 || res.ErrorCode() != "no_autenticado" {
			t.Errorf("%s with the cookie of an ended session: %d %s, want 401", c.name, res.Status, res.Body)
		}
	}
	var rows int
	if err := f.db.AdminPool(t).QueryRow(context.Background(), `SELECT count(*) FROM predictions.apuestas WHERE jugador_id = $1`, bruno.ID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if n, l, v := f.stored(bruno, f.match); rows != 1 || n != 1 || l != 1 || v != 1 {
		t.Fatalf("an ended session changed Bruno's predictions: %d rows, %d-%d", rows, l, v)
	}
}

func TestParallelDoubleSubmitsLeaveOneRow(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	var wg sync.WaitGroup
	statuses := make([]int, 50)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.api.Do("POST", path(ana), body(f.match, 2, 0, ana.Email), testenv.As(ana)).Status
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		if s >= 500 || (s != 200 && s != 201) {
			t.Fatalf("statuses: %v", statuses)
		}
		if s == 201 {
			created++
		}
	}
	if rows, _, _ := f.stored(ana, f.match); rows != 1 || created != 1 {
		t.Fatalf("%d rows, %d answered created; want 1 and 1", rows, created)
	}
}

func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	m := fmt.Sprint(f.match)
	// Every wrong goal value is told in the player's words, never the decoder's
	// ('El campo "goles_local" tiene un tipo incorrecto.').
	const goles = "Los goles tienen que ser un número entero de 0 a 99."
	cases := []struct {
		name    string
		body    any
		opts    []func(*http.Request)
		status  int
		code    string
		mensaje string // "" when any message will do
	}{
		{"negative goals", `{"partido":` + m + `,"goles_local":-1,"goles_visitante":0}`, nil, 400, "datos_invalidos", goles},
		{"huge goals", `{"partido":` + m + `,"goles_local":100,"goles_visitante":0}`, nil, 400, "datos_invalidos", goles},
		{"overflowing goals", `{"partido":` + m + `,"goles_local":99999999999999999999,"goles_visitante":0}`, nil, 400, "datos_invalidos", goles},
		{"fractional goals", `{"partido":` + m + `,"goles_local":1.5,"goles_visitante":0}`, nil, 400, "datos_invalidos", goles},
		{"fractional away goals", `{"partido":` + m + `,"goles_local":1,"goles_visitante":0.5}`, nil, 400, "datos_invalidos", goles},
		{"goals in exponent form", `{"partido":` + m + `,"goles_local":1e1,"goles_visitante":0}`, nil, 400, "datos_invalidos", goles},
		{"goals as text", `{"partido":` + m + `,"goles_local":"2","goles_visitante":0}`, nil, 400, "datos_invalidos", goles},
		{"goals as an object", `{"partido":` + m + `,"goles_local":{},"goles_visitante":0}`, nil, 400, "datos_invalidos", goles},
		{"missing home goals", `{"partido":` + m + `,"goles_visitante":0}`, nil, 400, "datos_invalidos", "Te falta poner el resultado del equipo local."},
		{"null home goals", `{"partido":` + m + `,"goles_local":null,"goles_visitante":0}`, nil, 400, "datos_invalidos", "Te falta poner el resultado del equipo local."},
		{"missing away goals", `{"partido":` + m + `,"goles_local":0}`, nil, 400, "datos_invalidos", "Te falta poner el resultado del equipo visitante."},
		{"unknown field", `{"partido":` + m + `,"goles_local":1,"goles_visitante":0,"puntos":10}`, nil, 400, "datos_invalidos", ""},
		{"two objects", `{"partido":` + m + `,"goles_local":1,"goles_visitante":0}{}`, nil, 400, "datos_invalidos", ""},
		{"not JSON", `partido=1`, nil, 400, "datos_invalidos", ""},
		{"too large", `{"partido":` + m + `,"goles_local":1,"goles_visitante":0,"jugador":"` + strings.Repeat("a", 20000) + `"}`, nil, 413, "cuerpo_demasiado_grande", ""},
		{"wrong content type", `{"partido":` + m + `,"goles_local":1,"goles_visitante":0}`, []func(*http.Request){testenv.WithHeader("Content-Type", "text/plain")}, 415, "tipo_no_soportado", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := f.api.Do("POST", path(ana), c.body, append([]func(*http.Request){testenv.As(ana)}, c.opts...)...)
			if res.Status != c.status || res.ErrorCode() != c.code {
				t.Fatalf("%d %s, want %d %s", res.Status, res.Body, c.status, c.code)
			}
			if c.mensaje != "" && mensaje(t, res) != c.mensaje {
				t.Fatalf("%s, want the message %q", res.Body, c.mensaje)
			}
			if rows, _, _ := f.stored(ana, f.match); rows != 0 {
				t.Fatal("a refused body was stored")
			}
		})
	}
}

// Each session's writes are limited: past the burst POST and PUT answer 429 with Retry-After
// and a Spanish message and change nothing; another player and reads are unaffected; the
// bucket refills with time.
func TestWritesAreRateLimitedPerSession(t *testing.T) {
	limit := ratelimit.New(5, 4) // 5/s, burst 4
	clock := time.Now()
	limit.SetClock(func() time.Time { return clock })
	f := newLimitedFixture(t, limit)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	bruno := testenv.SignIn(t, f.db, "bruno@prode.test", "Bruno", false)

	var saved store.Apuesta
	for i := 0; i < 4; i++ {
		res := f.api.Do("POST", path(ana), body(f.match, i, 0, ana.Email), testenv.As(ana))
		if res.Status != 200 && res.Status != 201 {
			t.Fatalf("write %d within the burst: %d %s", i, res.Status, res.Body)
		}
		res.Decode(t, &saved)
	}
	for _, try := range []struct{ method, url string }{{"POST", path(ana)}, {"PUT", fmt.Sprintf("%s/%d", path(ana), saved.ID)}} {
		res := f.api.Do(try.method, try.url, body(f.match, 9, 9, ana.Email), testenv.As(ana))
		if res.Status != http.StatusTooManyRequests || res.ErrorCode() != "demasiadas_solicitudes" || res.Header.Get("Retry-After") != "1" ||
			!strings.Contains(string(res.Body), "Esperá") || !strings.Contains(string(res.Body), `"request_id":"`) {
			t.Fatalf("%s past the burst: %d %v %s", try.method, res.Status, res.Header, res.Body)
		}
	}
	if rows, l, v := f.stored(ana, f.match); rows != 1 || l != 3 || v != 0 {
		t.Fatalf("a refused write changed the row: %d rows, %d-%d", rows, l, v)
	}
	if res := f.api.Do("GET", path(ana), nil, testenv.As(ana)); res.Status != 200 {
		t.Fatalf("reads are not limited: %d", res.Status)
	}
	if res := f.api.Do("POST", path(bruno), body(f.match, 1, 1, bruno.Email), testenv.As(bruno)); res.Status != 201 {
		t.Fatalf("another player: %d %s", res.Status, res.Body)
	}
	clock = clock.Add(200 * time.Millisecond) // one token at 5/s
	if res := f.api.Do("POST", path(ana), body(f.match, 7, 0, ana.Email), testenv.As(ana)); res.Status != 200 {
		t.Fatalf("after the refill: %d %s", res.Status, res.Body)
	}
	if res := f.api.Do("POST", path(ana), body(f.match, 8, 0, ana.Email), testenv.As(ana)); res.Status != 429 {
		t.Fatalf("second after the refill: %d %s", res.Status, res.Body)
	}
}
