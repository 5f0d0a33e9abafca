package scoring_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// A result is carried into the standings and announced before its points rows are written, and
// a matchday's answers (its own table; the matchdays and their winners) come from the totals
// those rows move. A browser that the announcement sends to the matchday tab in between waits
// for the rows rather than get the day without the result, which would also stay cached under
// the new version, on every replica, until the next result.
func TestAMatchdayReadBeforeTheRowsWaitsForThem(t *testing.T) {
	d := newHeldMatchday(t)
	during := make(chan matchdayRead, 1)
	go func() { during <- d.read(d.app) }()
	time.Sleep(300 * time.Millisecond) // the read is under way, the rows still held back
	d.writeRows()
	d.check("read while the rows were written", <-during)
	d.check("read again", d.read(d.app))
	d.check("read by another replica", d.read(d.replica()))
}

// Rows that take longer than a matchday's answer may wait (two million players) leave it
// served without them, but not kept: read again once they are written, it has the result.
func TestAMatchdayReadLongBeforeTheRowsIsNotKept(t *testing.T) {
	d := newHeldMatchday(t)
	start := time.Now()
	before := d.read(d.app)
	if waited := time.Since(start); waited > 8*time.Second {
		t.Errorf("the matchday's answers took %v while the rows were held back", waited)
	}
	if len(before.day.Posiciones) != 1 {
		t.Errorf("read before the rows: %+v, want the first result's day (one player with points)", before.day.Posiciones)
	}
	d.writeRows()
	d.check("read again", d.read(d.app))
	d.check("read by another replica", d.read(d.replica()))
}

// heldMatchday is a matchday of two results, the second carried into the table and announced
// while its points rows are held back by a lock on the matchday totals.
type heldMatchday struct {
	t      *testing.T
	e      *scoringtest.Env
	app    *scoringtest.App
	fecha  string
	hold   pgx.Tx
	scored chan error
	want   []int64 // the day's points, best first
}

func newHeldMatchday(t *testing.T) *heldMatchday {
	e := scoringtest.New(t)
	kickoff := scoringtest.NoonDaysAgo(t, 2)
	first := e.Match("Grupo A", "ARG", "FRA", kickoff)
	second := e.Match("Grupo B", "CRO", "MAR", kickoff.Add(2*time.Hour))
	ana, beto := e.Player("ana"), e.Player("beto")
	e.Predict(ana, first, 2, 1)
	e.Predict(beto, first, 0, 0)
	e.Predict(ana, second, 0, 1)
	e.Predict(beto, second, 1, 1)
	e.SetResult(first, scoringtest.Result{GolesLocal: 2, GolesVisitante: 1})
	d := &heldMatchday{t: t, e: e, app: e.NewApp(scoringtest.Options{}), fecha: kickoff.Format(time.DateOnly),
		scored: make(chan error, 1)}
	d.app.Score(t)
	_, before := e.StandingsVersion(t)
	d.read(d.app) // the day with the first result, cached

	ctx := context.Background()
	d.hold = holdRowsBack(t, e)
	e.SetResult(second, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1})
	go func() { _, err := d.app.Scoring.ProcessPending(ctx); d.scored <- err }()
	// Published: in PostgreSQL, and Redis's version key moved to it (what the announcement
	// follows; a read in between may still get the previous version from Redis).
	scoringtest.Eventually(t, 10*time.Second, func() string {
		torneo, v := e.StandingsVersion(t)
		if v.Tabla == before.Tabla {
			return "the second result's table is not published"
		}
		if got, _ := d.app.Redis.Get(ctx, d.app.Cache.VersionKey(torneo)).Result(); got != v.String() {
			return "Redis's version key is " + got + ", not the second result's table " + v.String()
		}
		return ""
	})
	anaFirst, _, _ := scoringtest.Points(2, 1, 2, 1)
	anaSecond, _, _ := scoringtest.Points(0, 1, 1, 1)
	betoFirst, _, _ := scoringtest.Points(0, 0, 2, 1)
	betoSecond, _, _ := scoringtest.Points(1, 1, 1, 1)
	d.want = []int64{int64(anaFirst + anaSecond), int64(betoFirst + betoSecond)}
	if d.want[0] <= d.want[1] {
		t.Fatalf("the test wants ana ahead: %v", d.want)
	}
	return d
}

// holdRowsBack holds a scorer's points rows back until the transaction it returns ends: the
// scorer's transaction waits for the matchday totals.
func holdRowsBack(t *testing.T, e *scoringtest.Env) pgx.Tx {
	t.Helper()
	ctx := context.Background()
	hold, err := e.Admin.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = hold.Rollback(ctx) })
	if _, err := hold.Exec(ctx, `LOCK TABLE scoring.totales_fecha IN SHARE MODE`); err != nil {
		t.Fatal(err)
	}
	return hold
}

// writeRows lets the rows be written and waits for the scorer.
func (d *heldMatchday) writeRows() {
	d.t.Helper()
	if err := d.hold.Commit(context.Background()); err != nil {
		d.t.Fatal(err)
	}
	if err := <-d.scored; err != nil {
		d.t.Fatal(err)
	}
}

// replica is another scoring process on the same Redis keys.
func (d *heldMatchday) replica() *scoringtest.App {
	redisURL, _ := testenv.Redis(d.t)
	return d.e.NewAppOn(redisURL, d.app.Prefix, scoringtest.Options{})
}

type matchdayRead struct {
	day    store.Pagina
	fechas store.Fechas
}

func (d *heldMatchday) read(a *scoringtest.App) matchdayRead {
	var r matchdayRead
	for path, into := range map[string]any{"/api/posiciones?fecha=" + d.fecha: &r.day, "/api/posiciones/fechas": &r.fechas} {
		if res := a.API.Do(http.MethodGet, path, nil); res.Status != http.StatusOK {
			d.t.Errorf("GET %s: %d %s", path, res.Status, res.Body)
		} else {
			res.Decode(d.t, into)
		}
	}
	return r
}

// check compares a read with the day of both results.
func (d *heldMatchday) check(who string, r matchdayRead) {
	d.t.Helper()
	var got []int64
	for _, p := range r.day.Posiciones {
		got = append(got, p.Puntaje)
	}
	if fmt.Sprint(got) != fmt.Sprint(d.want) || r.day.Total != 2 {
		d.t.Errorf("%s: the matchday's table has points %v of %d players, want %v of 2", who, got, r.day.Total, d.want)
	}
	if f := r.fechas.Fechas; len(f) != 1 || f[0].Partidos != 2 || len(f[0].Ganadores) != 1 || f[0].Ganadores[0].Puntaje != d.want[0] {
		d.t.Errorf("%s: the matchdays %+v, want one of 2 matches won with %d points", who, f, d.want[0])
	}
}
