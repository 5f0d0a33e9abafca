package scoring_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"prode/scoring/internal/scoring"
	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// standings reads /api/posiciones (through the cache, as players do) as "nombre:puntaje" in
// display order.
func standings(t *testing.T, app *scoringtest.App) string {
	t.Helper()
	body := page(t, app, "/api/posiciones")
	out := ""
	for _, p := range body.Posiciones {
		out += fmt.Sprintf("%s:%d ", p.Nombre, p.Puntaje)
	}
	return out
}

// page reads a page of the table.
func page(t *testing.T, app *scoringtest.App, path string) store.Pagina {
	t.Helper()
	res := app.API.Do(http.MethodGet, path, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
	}
	var p store.Pagina
	res.Decode(t, &p)
	return p
}

func expect(t *testing.T, app *scoringtest.App, want string) func() string {
	return func() string {
		if got := standings(t, app); got != want {
			return fmt.Sprintf("standings %q, want %q", got, want)
		}
		return ""
	}
}

// setup: two players and three group matches; ana predicts 2-0 and beto 0-3 in each.
func setup(t *testing.T) (*scoringtest.Env, []int64) {
	e := scoringtest.New(t)
	ana, beto := e.Player("ana"), e.Player("beto")
	var ms []int64
	for i := range 3 {
		m := e.Match("Grupo A", "ARG", "MAR", time.Now().Add(time.Duration(i-10)*time.Hour))
		e.Predict(ana, m, 2, 0)
		e.Predict(beto, m, 0, 3)
		ms = append(ms, m)
	}
	return e, ms
}

// running is setup with a consumer running, which reads the outbox every poll besides
// NOTIFY, and which has applied the first match's result, 2-0: applied once the consumer is up
// (caught up or notified), after which it is listening.
func running(t *testing.T, poll time.Duration) (*scoringtest.Env, []int64, *scoringtest.App) {
	t.Helper()
	e, ms := setup(t)
	app := e.NewApp(scoringtest.Options{Poll: poll})
	scoringtest.Go(t, app.Consumer.Run)
	e.SetResult(ms[0], scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	scoringtest.Eventually(t, 5*time.Second, expect(t, app, "ana:10 beto:0 "))
	return e, ms, app
}

// A result entered with its outbox event and NOTIFY shows in /api/posiciones within 2 seconds,
// with polling set to a minute so that only NOTIFY can explain it.
func TestNotifiedResultShowsWithinTwoSeconds(t *testing.T) {
	e, ms, app := running(t, time.Minute)

	for i, m := range ms[1:] {
		start := time.Now()
		e.SetResult(m, scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
		scoringtest.Eventually(t, 2*time.Second, expect(t, app, fmt.Sprintf("ana:%d beto:0 ", 20+10*i)))
		t.Logf("result %d in the standings after %v", i+2, time.Since(start))
	}
	// A correction is notified the same way.
	e.SetResult(ms[2], scoringtest.Result{GolesLocal: 0, GolesVisitante: 0})
	scoringtest.Eventually(t, 2*time.Second, expect(t, app, "ana:22 beto:2 "))

	// The table is ranked and published ahead of the points rows' commit, and the metrics
	// count a transaction once it has committed: they may follow the table by a moment.
	scoringtest.Eventually(t, 2*time.Second, func() string {
		if got := app.Metric(t, "prode_scoring_events_processed_total"); got != 4 {
			return fmt.Sprintf("prode_scoring_events_processed_total = %v, want 4", got)
		}
		if got := app.Metric(t, "prode_scoring_outbox_lag_seconds"); got != 0 {
			return fmt.Sprintf("prode_scoring_outbox_lag_seconds = %v with nothing pending, want 0", got)
		}
		return ""
	})
	if got := app.Metric(t, "prode_scoring_duration_seconds"); got < 4 {
		t.Errorf("prode_scoring_duration_seconds observed %v matches, want at least 4", got)
	}
	rec := httptest.NewRecorder()
	app.Server.AdminHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, name := range []string{"prode_scoring_duration_seconds_bucket", "prode_scoring_events_processed_total",
		"prode_scoring_outbox_lag_seconds", `prode_standings_cache_requests_total{result="hit"}`,
		`prode_standings_cache_requests_total{result="miss"}`, `prode_standings_cache_requests_total{result="error"}`} {
		if !strings.Contains(rec.Body.String(), name) {
			t.Errorf("/metrics does not show %s", name)
		}
	}
}

// Events written while scoring is stopped (their NOTIFY heard by nobody) are applied once it
// starts, by a new process as well.
func TestEventsWrittenWhileStoppedAreScoredAtStart(t *testing.T) {
	e, ms := setup(t)
	app := e.NewApp(scoringtest.Options{Poll: time.Minute})

	e.SetResult(ms[0], scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	e.SetResult(ms[1], scoringtest.Result{GolesLocal: 1, GolesVisitante: 0})
	if got := standings(t, app); got != "ana:0 beto:0 " {
		t.Fatalf("scored with no consumer running: %q", got)
	}
	stop := scoringtest.Go(t, app.Consumer.Run)
	scoringtest.Eventually(t, 2*time.Second, expect(t, app, "ana:17 beto:0 "))
	stop()

	// Stopped again: a result and a deletion wait in the outbox.
	e.SetResult(ms[2], scoringtest.Result{GolesLocal: 0, GolesVisitante: 0})
	e.DeleteResult(ms[0])
	time.Sleep(100 * time.Millisecond)
	if got := standings(t, app); got != "ana:17 beto:0 " {
		t.Fatalf("scored with the consumer stopped: %q", got)
	}
	restarted := e.NewApp(scoringtest.Options{Poll: time.Minute}) // a new process
	scoringtest.Go(t, restarted.Consumer.Run)
	scoringtest.Eventually(t, 2*time.Second, expect(t, restarted, "ana:9 beto:2 "))
}

// An event whose notification was lost is applied at the next poll.
func TestLostNotificationIsPolled(t *testing.T) {
	e, ms, app := running(t, 300*time.Millisecond)

	e.Silent = true
	e.SetResult(ms[1], scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	scoringtest.Eventually(t, 2*time.Second, expect(t, app, "ana:20 beto:0 "))
}

// The outbox lag gauge reports the age of the oldest event not applied yet.
func TestOutboxLag(t *testing.T) {
	e, ms := setup(t)
	app := e.NewApp(scoringtest.Options{})
	id := e.SetResult(ms[0], scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	e.Exec(`UPDATE fixtures.eventos SET creado = clock_timestamp() - interval '90 seconds' WHERE id = $1`, id)
	e.SetResult(ms[1], scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	lag, err := store.NewPointsStore(app.Pool, time.UTC).OutboxLag(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if lag < 90 || lag > 120 {
		t.Errorf("outbox lag %v s, want about 90", lag)
	}
	app.Score(t)
	if got := app.Metric(t, "prode_scoring_outbox_lag_seconds"); got != 0 {
		t.Errorf("lag gauge %v after catching up, want 0", got)
	}
}

// When PostgreSQL drops the consumer's connection, it reconnects (with backoff) and goes on:
// what was written meanwhile is caught up, later notifications are heard.
func TestConsumerReconnects(t *testing.T) {
	e, ms, app := running(t, time.Minute)

	first := listenerPID(t, e)
	var killed bool
	if err := e.Admin.QueryRow(context.Background(), `SELECT pg_terminate_backend($1)`, first).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate the listener: %v %v", killed, err)
	}
	e.SetResult(ms[1], scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	scoringtest.Eventually(t, 3*time.Second, expect(t, app, "ana:20 beto:0 "))
	scoringtest.Eventually(t, 3*time.Second, func() string {
		if pid := listenerPID(t, e); pid == 0 || pid == first {
			return fmt.Sprintf("listener pid %d (was %d)", pid, first)
		}
		return ""
	})
	// Listening again: a notification is heard without waiting for the poll.
	e.SetResult(ms[2], scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	scoringtest.Eventually(t, 2*time.Second, expect(t, app, "ana:30 beto:0 "))
}

func listenerPID(t *testing.T, e *scoringtest.Env) int {
	t.Helper()
	var pid int
	err := e.Admin.QueryRow(context.Background(), `
		SELECT coalesce(max(pid), 0) FROM pg_stat_activity
		 WHERE datname = current_database() AND application_name = $1`, scoring.ListenerName).Scan(&pid)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// A process that starts ranks no new table when the newest one is up to date, so that open pages
// are not sent back to the standings once per new pod; one that finds points committed without
// their table (a process stopped between the two) ranks it, and so does one that finds a
// sign-up since.
func TestStartKeepsAnUpToDateTable(t *testing.T) {
	e, ms := setup(t)
	ctx := context.Background()
	first := e.NewApp(scoringtest.Options{Poll: time.Minute})
	e.SetResult(ms[0], scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	first.Score(t)
	_, scored := e.StandingsVersion(t)

	if err := e.NewApp(scoringtest.Options{Poll: time.Minute}).Standings.BuildAll(ctx); err != nil {
		t.Fatal(err)
	}
	if _, v := e.StandingsVersion(t); v != scored {
		t.Fatalf("a start with the table up to date ranked version %d, want %d kept", v.Tabla, scored.Tabla)
	}

	// Points committed, the process gone before their table: the next start ranks it.
	e.SetResult(ms[1], scoringtest.Result{GolesLocal: 1, GolesVisitante: 0})
	zone, err := time.LoadLocation("America/Argentina/Buenos_Aires") // the apps' zone
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.NewPointsStore(first.Pool, zone).ScoreMatches(ctx, []int64{ms[1]}, "noventa", nil); err != nil {
		t.Fatal(err)
	}
	restarted := e.NewApp(scoringtest.Options{Poll: time.Minute})
	if err := restarted.Standings.BuildAll(ctx); err != nil {
		t.Fatal(err)
	}
	_, rebuilt := e.StandingsVersion(t)
	if rebuilt.Tabla <= scored.Tabla {
		t.Fatalf("a start after points without their table kept version %d", rebuilt.Tabla)
	}
	if got := standings(t, restarted); got != "ana:17 beto:0 " {
		t.Fatalf("the table ranked at start: %q, want ana:17 beto:0", got)
	}

	e.Player("carla")
	if err := e.NewApp(scoringtest.Options{Poll: time.Minute}).Standings.BuildAll(ctx); err != nil {
		t.Fatal(err)
	}
	if _, v := e.StandingsVersion(t); v.Tabla <= rebuilt.Tabla {
		t.Fatalf("a start after a sign-up kept version %d", v.Tabla)
	}
}
