package http_test

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

type table struct {
	e                    *scoringtest.Env
	zoe, beto, caro, ale testenv.Player
}

// arrangeTable scores four matches so that the totals are zoe 10 (one exact), beto 10 (two
// right outcomes), caro 8 (four consolations) and ale 0 (no predictions).
func arrangeTable(t *testing.T, e *scoringtest.Env) table {
	tb := table{e: e, zoe: e.Player("Zoe"), beto: e.Player("Beto"), caro: e.Player("Caro"), ale: e.Player("Ale")}
	start := scoringtest.NoonDaysAgo(t, 3) // four hourly matches on one matchday
	var ms []int64
	for i, r := range []scoringtest.Result{{GolesLocal: 2, GolesVisitante: 1}, {GolesLocal: 1, GolesVisitante: 0}, {GolesLocal: 0, GolesVisitante: 2}, {GolesLocal: 1, GolesVisitante: 1}} {
		m := e.Match("Grupo B", "ENG", "FRA", start.Add(time.Duration(i)*time.Hour))
		e.SetResult(m, r)
		ms = append(ms, m)
	}
	e.Predict(tb.zoe, ms[0], 2, 1)  // exact: 10
	e.Predict(tb.zoe, ms[1], 0, 1)  // 0
	e.Predict(tb.zoe, ms[2], 1, 0)  // 0
	e.Predict(tb.beto, ms[0], 3, 0) // outcome: 5
	e.Predict(tb.beto, ms[1], 2, 1) // outcome: 5
	e.Predict(tb.caro, ms[0], 2, 2) // consolation: 2
	e.Predict(tb.caro, ms[1], 1, 1) // 2
	e.Predict(tb.caro, ms[2], 0, 0) // 2
	e.Predict(tb.caro, ms[3], 1, 0) // 2
	return tb
}

func pagina(t *testing.T, app *scoringtest.App, query string) store.Pagina {
	t.Helper()
	res := app.API.Do(http.MethodGet, "/api/posiciones"+query, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("GET /api/posiciones%s: %d %s", query, res.Status, res.Body)
	}
	if strings.Contains(string(res.Body), "@") {
		t.Errorf("the standings show an e-mail address: %s", res.Body)
	}
	var p store.Pagina
	res.Decode(t, &p)
	// The movement is checked by its own tests (movement_test.go); rows here compare without it.
	for i := range p.Posiciones {
		p.Posiciones[i].PosicionAnterior = nil
	}
	return p
}

func row(p testenv.Player, posicion, puntaje, exactos, aciertos int64) store.Posicion {
	return store.Posicion{Posicion: posicion, ID: p.ID, Nombre: p.Nombre, Puntaje: puntaje, Exactos: exactos, Aciertos: aciertos}
}

func equalRows(t *testing.T, what string, got, want []store.Posicion) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows %+v, want %+v", what, len(got), got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: row %d is %+v, want %+v", what, i+1, got[i], want[i])
		}
	}
}

// Totals 10, 10, 8 rank 1, 1, 3 (competition ranking); ties show by exact hits, then right
// outcomes; every registered player is in the table, with 0 when they have no points.
func TestStandingsCompetitionRanking(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e)
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)
	want := []store.Posicion{
		row(tb.zoe, 1, 10, 1, 1), row(tb.beto, 1, 10, 0, 2), row(tb.caro, 3, 8, 0, 0), row(tb.ale, 4, 0, 0, 0),
	}
	for _, pass := range []string{"first", "cached"} {
		p := pagina(t, app, "")
		if p.Pagina != 1 || p.PorPagina != 100 || p.Total != 4 {
			t.Errorf("%s: pagina %d, por_pagina %d, total %d; want 1, 100, 4", pass, p.Pagina, p.PorPagina, p.Total)
		}
		equalRows(t, pass, p.Posiciones, want)
	}
	if hits := app.Metric(t, "prode_standings_cache_requests_total", "result", "hit"); hits < 1 {
		t.Errorf("the second read was not served from Redis (%v hits)", hits)
	}

	p := pagina(t, app, "?pagina=2&por_pagina=2")
	if p.Pagina != 2 || p.PorPagina != 2 || p.Total != 4 {
		t.Errorf("page 2 of 2: pagina %d, por_pagina %d, total %d", p.Pagina, p.PorPagina, p.Total)
	}
	equalRows(t, "page 2 of 2", p.Posiciones, want[2:])
	equalRows(t, "past the end", pagina(t, app, "?pagina=3&por_pagina=2").Posiciones, nil)
}

func TestStandingsRefusesBadPages(t *testing.T) {
	e := scoringtest.New(t)
	app := e.NewApp(scoringtest.Options{})
	for _, q := range []string{"pagina=0", "pagina=-1", "pagina=uno", "pagina=", "por_pagina=0", "por_pagina=101", "por_pagina=1.5", "pagina=1&por_pagina=x"} {
		res := app.API.Do(http.MethodGet, "/api/posiciones?"+q, nil)
		if res.Status != http.StatusBadRequest || res.ErrorCode() != "datos_invalidos" {
			t.Errorf("?%s: %d %s, want 400 datos_invalidos", q, res.Status, res.Body)
		}
	}
	for _, q := range []string{"pagina=1&por_pagina=1", "por_pagina=100", "pagina=99"} {
		if res := app.API.Do(http.MethodGet, "/api/posiciones?"+q, nil); res.Status != http.StatusOK {
			t.Errorf("?%s: %d %s, want 200", q, res.Status, res.Body)
		}
	}
}

func TestMiPosicion(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e)
	app := e.NewApp(scoringtest.Options{})
	app.Score(t)
	for _, c := range []struct {
		p    testenv.Player
		want store.MiPosicion
	}{
		{tb.beto, store.MiPosicion{Posicion: 1, Puntaje: 10, Exactos: 0, Aciertos: 2, Pagina: 1}},
		{tb.caro, store.MiPosicion{Posicion: 3, Puntaje: 8, Exactos: 0, Aciertos: 0, Pagina: 1}},
		{tb.ale, store.MiPosicion{Posicion: 4, Puntaje: 0, Exactos: 0, Aciertos: 0, Pagina: 1}},
	} {
		res := app.API.Do(http.MethodGet, "/api/posiciones/yo", nil, testenv.As(c.p))
		if res.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", c.p.Nombre, res.Status, res.Body)
		}
		var got store.MiPosicion
		res.Decode(t, &got)
		if got != c.want {
			t.Errorf("%s: %+v, want %+v", c.p.Nombre, got, c.want)
		}
	}
	if res := app.API.Do(http.MethodGet, "/api/posiciones/yo", nil); res.Status != http.StatusUnauthorized {
		t.Errorf("signed out: %d %s, want 401", res.Status, res.Body)
	}

	// 150 more players without points: all tie at 0 (rank 4), and the page of 100 rows that
	// holds a player follows the display order (name breaks the tie).
	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre)
	        SELECT 'sub' || i, 'j' || i || '@example.com', 'Jugador ' || lpad(i::text, 3, '0')
	          FROM generate_series(1, 150) i`)
	res := app.API.Do(http.MethodGet, "/api/posiciones/yo", nil, testenv.As(tb.ale))
	var got store.MiPosicion
	res.Decode(t, &got)
	// Order among the 0s: Ale, Jugador 001..150 -> Ale is row 4; a player named after them is
	// row 155, on page 2.
	if want := (store.MiPosicion{Posicion: 4, Pagina: 1}); got != want {
		t.Errorf("ale among 151 zeros: %+v, want %+v", got, want)
	}
	zz := e.Player("Zz")
	res = app.API.Do(http.MethodGet, "/api/posiciones/yo", nil, testenv.As(zz))
	res.Decode(t, &got)
	if want := (store.MiPosicion{Posicion: 4, Pagina: 2}); got != want {
		t.Errorf("a player on row 155: %+v, want %+v", got, want)
	}
	p := pagina(t, app, "?pagina=2")
	if p.Total != 155 || len(p.Posiciones) != 55 || p.Posiciones[54].ID != zz.ID {
		t.Errorf("page 2: total %d, %d rows, last %+v", p.Total, len(p.Posiciones), p.Posiciones[len(p.Posiciones)-1])
	}
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// With Redis unreachable the standings answer 200 from PostgreSQL, quickly, and the error is
// counted.
func TestStandingsWithoutRedis(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e)
	app := e.NewAppOn("redis://"+freePort(t)+"/0", "unreachable:", scoringtest.Options{})
	app.Score(t)
	for i := range 5 {
		if i == 3 {
			time.Sleep(1100 * time.Millisecond) // past the pause after an error: Redis is tried again
		}
		start := time.Now()
		p := pagina(t, app, "")
		if elapsed := time.Since(start); elapsed > 300*time.Millisecond {
			t.Errorf("answered in %v without Redis", elapsed)
		}
		if len(p.Posiciones) != 4 || p.Posiciones[0] != row(tb.zoe, 1, 10, 1, 1) {
			t.Errorf("standings without Redis: %+v", p.Posiciones)
		}
	}
	if got := app.Metric(t, "prode_standings_cache_requests_total", "result", "error"); got != 5 {
		t.Errorf("cache errors counted: %v, want 5", got)
	}
}

// Redis goes away and comes back empty (restarted): meanwhile the standings come from
// PostgreSQL, new results included; once it is back, the repair loop rebuilds the version key
// and page 1, and reads are served from Redis again.
func TestStandingsCacheRebuiltAfterRedisOutage(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e)
	redisURL, prefix := testenv.Redis(t)
	u, err := url.Parse(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := scoringtest.NewProxy(t, u.Host)
	app := e.NewAppOn("redis://"+proxy.Addr+u.Path, prefix, scoringtest.Options{})
	direct := redis.NewClient(mustOptions(t, redisURL))
	defer direct.Close()
	ctx := context.Background()
	scoringtest.Go(t, func(ctx context.Context) { app.Standings.Repair(ctx, 50*time.Millisecond) })

	app.Score(t)
	cached := func() string {
		torneo, version := e.StandingsVersion(t)
		got, err := direct.Get(ctx, app.Cache.VersionKey(torneo)).Result()
		if err != nil || got != version.String() {
			return "version key " + err2s(err) + ", want the version of PostgreSQL"
		}
		if n, _ := direct.Exists(ctx, app.Cache.PageKey(torneo, version, 1, 100)).Result(); n != 1 {
			return "page 1 is not cached at the current version"
		}
		return ""
	}
	// Scoring published the new version and warmed page 1.
	if msg := cached(); msg != "" {
		t.Fatal(msg)
	}
	hits := app.Metric(t, "prode_standings_cache_requests_total", "result", "hit")
	pagina(t, app, "")
	if got := app.Metric(t, "prode_standings_cache_requests_total", "result", "hit"); got != hits+1 {
		t.Errorf("page 1 was not served from Redis after scoring warmed it")
	}

	proxy.Stop()
	// Redis restarts empty.
	keys, _ := direct.Keys(ctx, prefix+"*").Result()
	if len(keys) > 0 {
		direct.Del(ctx, keys...)
	}
	// A new result is scored while Redis is away (its publish fails) and shows at once.
	m := e.Match("Grupo B", "ENG", "FRA", time.Now().Add(-time.Hour))
	e.Predict(tb.caro, m, 3, 3)
	e.SetResult(m, scoringtest.Result{GolesLocal: 3, GolesVisitante: 3})
	app.Score(t)
	errorsBefore := app.Metric(t, "prode_standings_cache_requests_total", "result", "error")
	for range 3 {
		start := time.Now()
		p := pagina(t, app, "")
		if elapsed := time.Since(start); elapsed > 300*time.Millisecond {
			t.Errorf("answered in %v with Redis down", elapsed)
		}
		if p.Posiciones[0] != row(tb.caro, 1, 18, 1, 1) {
			t.Errorf("with Redis down, first row %+v, want caro with 18", p.Posiciones[0])
		}
	}
	if got := app.Metric(t, "prode_standings_cache_requests_total", "result", "error"); got != errorsBefore+3 {
		t.Errorf("cache errors %v, want %v", got, errorsBefore+3)
	}

	proxy.Start()
	scoringtest.Eventually(t, 3*time.Second, cached)
	hits = app.Metric(t, "prode_standings_cache_requests_total", "result", "hit")
	if p := pagina(t, app, ""); p.Posiciones[0] != row(tb.caro, 1, 18, 1, 1) {
		t.Errorf("after Redis returned, first row %+v", p.Posiciones[0])
	}
	if got := app.Metric(t, "prode_standings_cache_requests_total", "result", "hit"); got != hits+1 {
		t.Errorf("after Redis returned, page 1 was not served from Redis")
	}
}

func mustOptions(t *testing.T, raw string) *redis.Options {
	opts, err := redis.ParseURL(raw)
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

func err2s(err error) string {
	if err == nil {
		return "wrong"
	}
	return err.Error()
}

// Replicas keep the pages they served in memory for LocalFreshFor: a second read costs no
// Redis round trip, a version published by the replica itself shows at once, and one published
// by another replica shows within LocalFreshFor.
func TestStandingsFromMemoryFollowOtherReplicas(t *testing.T) {
	e := scoringtest.New(t)
	tb := arrangeTable(t, e)
	redisURL, prefix := testenv.Redis(t)
	const fresh = 300 * time.Millisecond
	reader := e.NewAppOn(redisURL, prefix, scoringtest.Options{LocalFreshFor: fresh})
	scorer := e.NewAppOn(redisURL, prefix, scoringtest.Options{LocalFreshFor: fresh})
	scorer.Score(t)
	pagina(t, reader, "")
	fromMemory := reader.Metric(t, "prode_standings_cache_requests_total", "result", "local")
	if p := pagina(t, reader, ""); p.Posiciones[0] != row(tb.zoe, 1, 10, 1, 1) {
		t.Fatalf("first row %+v, want zoe with 10", p.Posiciones[0])
	}
	if got := reader.Metric(t, "prode_standings_cache_requests_total", "result", "local"); got != fromMemory+1 {
		t.Errorf("a second read of page 1 was not served from memory")
	}

	m := e.Match("Grupo B", "ENG", "FRA", time.Now().Add(-time.Hour))
	e.Predict(tb.caro, m, 3, 3)
	e.SetResult(m, scoringtest.Result{GolesLocal: 3, GolesVisitante: 3})
	scorer.Score(t)
	published := time.Now()
	if p := pagina(t, scorer, ""); p.Posiciones[0] != row(tb.caro, 1, 18, 1, 1) {
		t.Errorf("the replica that scored shows first row %+v, want caro with 18", p.Posiciones[0])
	}
	scoringtest.Eventually(t, 3*fresh, func() string {
		if p := pagina(t, reader, ""); p.Posiciones[0] != row(tb.caro, 1, 18, 1, 1) {
			return "the other replica still shows the old standings"
		}
		return ""
	})
	if late := time.Since(published); late > fresh+200*time.Millisecond {
		t.Errorf("the other replica showed the new standings %v after they were published (LocalFreshFor %v)", late, fresh)
	}
}

// Page 1 expires in Redis a minute after its last publish even though the version stays: the
// repair loop reads it again, so that the first reads after a quiet minute find it cached.
func TestRepairKeepsPageOneWarm(t *testing.T) {
	e := scoringtest.New(t)
	arrangeTable(t, e)
	redisURL, prefix := testenv.Redis(t)
	app := e.NewAppOn(redisURL, prefix, scoringtest.Options{})
	direct := redis.NewClient(mustOptions(t, redisURL))
	defer direct.Close()
	ctx := context.Background()
	app.Score(t)
	torneo, version := e.StandingsVersion(t)
	page1 := app.Cache.PageKey(torneo, version, 1, 100)
	if n, _ := direct.Exists(ctx, page1).Result(); n != 1 {
		t.Fatal("scoring did not publish page 1")
	}
	if err := direct.Del(ctx, page1).Err(); err != nil { // as if its TTL ran out
		t.Fatal(err)
	}
	if err := app.Standings.RepairOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := direct.Exists(ctx, page1).Result(); n != 1 {
		t.Fatal("the repair loop did not publish page 1 again once it had expired")
	}
	misses := app.Metric(t, "prode_standings_cache_requests_total", "result", "miss")
	time.Sleep(1100 * time.Millisecond) // past the page kept in the process
	pagina(t, app, "")
	if got := app.Metric(t, "prode_standings_cache_requests_total", "result", "miss"); got != misses {
		t.Errorf("the first read after the repair missed Redis")
	}
}
