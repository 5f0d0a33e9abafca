// Package scoringtest arranges what scoring's tests need on the real things: a migrated
// PostgreSQL database of the test's own with matches, players, predictions and results written
// the way the other services write them (a result and its outbox event in one transaction,
// then pg_notify), the scoring service wired as cmd/scoring wires it (app.Wire), and an
// independent reference of the points table.
package scoringtest

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"prode/platform/cache"
	"prode/platform/events"
	"prode/platform/httpserver"
	"prode/platform/session"
	"prode/platform/testenv"
	"prode/platform/wire"
	"prode/scoring/internal/app"
	"prode/scoring/internal/scoring"
	"prode/scoring/internal/standings"
)

// Points is the specification's points table (section 9), written independently of the SQL:
// exact 10; right outcome 5, plus 2 when one team's goals are right; else one team's goals
// right 2; else 0. exacto and acierto (right outcome) are the tie-break counts.
func Points(pl, pv, rl, rv int) (puntos int, exacto, acierto bool) {
	outcome := func(l, v int) int {
		switch {
		case l > v:
			return 1
		case l < v:
			return -1
		}
		return 0
	}
	exacto = pl == rl && pv == rv
	acierto = outcome(pl, pv) == outcome(rl, rv)
	oneTeam := pl == rl || pv == rv
	switch {
	case exacto:
		return 10, exacto, acierto
	case acierto && oneTeam:
		return 7, exacto, acierto
	case acierto:
		return 5, exacto, acierto
	case oneTeam:
		return 2, exacto, acierto
	}
	return 0, exacto, acierto
}

// Env is one test's database, arranged through a superuser pool.
type Env struct {
	t      testing.TB
	DB     *testenv.DB
	Admin  *pgxpool.Pool
	numero int
	// Silent leaves out the pg_notify of the outbox events (a notification lost).
	Silent bool
}

// New creates a fresh migrated database with a few teams.
func New(t testing.TB) *Env {
	t.Helper()
	db := testenv.NewDB(t)
	e := &Env{t: t, DB: db, Admin: db.AdminPool(t)}
	e.Exec(`INSERT INTO fixtures.equipos (codigo, nombre, bandera) VALUES
		('ARG', 'Argentina', 'ar'), ('FRA', 'Francia', 'fr'), ('CRO', 'Croacia', 'hr'),
		('MAR', 'Marruecos', 'ma'), ('ENG', 'Inglaterra', 'gb-eng'), ('BRA', 'Brasil', 'br')`)
	return e
}

// Exec runs SQL as the superuser.
func (e *Env) Exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.Admin.Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
}

// Match creates a match of categoria ("Grupo A", "Final"...) between two team codes, in the
// tournament "test" (the first one created, so the current one).
func (e *Env) Match(categoria, local, visitante string, inicio time.Time) int64 {
	e.t.Helper()
	return e.MatchIn("test", categoria, local, visitante, inicio)
}

// MatchIn creates a match in the tournament named torneo (created when new, as fixtures does).
func (e *Env) MatchIn(torneo, categoria, local, visitante string, inicio time.Time) int64 {
	e.t.Helper()
	e.numero++
	var id int64
	err := e.Admin.QueryRow(context.Background(), `
		INSERT INTO fixtures.partidos (torneo, numero, categoria, local, visitante, inicio)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		torneo, e.numero, categoria, local, visitante, inicio).Scan(&id)
	if err != nil {
		e.t.Fatalf("create match: %v", err)
	}
	return id
}

// Player registers a player and opens a session.
func (e *Env) Player(nombre string) testenv.Player {
	e.t.Helper()
	return testenv.SignIn(e.t, e.DB, fmt.Sprintf("%s-%d@example.com", nombre, time.Now().UnixNano()), nombre, false)
}

// Predict stores a player's prediction as the predictions service would.
func (e *Env) Predict(p testenv.Player, partido int64, local, visitante int) {
	e.t.Helper()
	e.Exec(`
		INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (jugador_id, partido_id) DO UPDATE
		   SET goles_local = EXCLUDED.goles_local, goles_visitante = EXCLUDED.goles_visitante`,
		p.ID, p.Email, partido, local, visitante)
}

// Result is a match's score, as both services show it; the extra-time and shoot-out scores
// are optional.
type Result = wire.Resultado

// Int is a pointer to n, for Result's optional scores.
func Int(n int) *int { return &n }

// SetResult enters or corrects a result as fixtures does: the result and an outbox event in
// one transaction, with pg_notify. It returns the event id.
func (e *Env) SetResult(partido int64, r Result) int64 {
	e.t.Helper()
	return e.outboxExec("partido_id", partido, events.ResultadoCargado, `
		INSERT INTO fixtures.resultados (partido_id, goles_local, goles_visitante, goles_local_alargue,
		                                 goles_visitante_alargue, penales_local, penales_visitante)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (partido_id) DO UPDATE
		   SET goles_local = EXCLUDED.goles_local, goles_visitante = EXCLUDED.goles_visitante,
		       goles_local_alargue = EXCLUDED.goles_local_alargue, goles_visitante_alargue = EXCLUDED.goles_visitante_alargue,
		       penales_local = EXCLUDED.penales_local, penales_visitante = EXCLUDED.penales_visitante,
		       cargado = now()`,
		partido, r.GolesLocal, r.GolesVisitante, r.GolesLocalAlargue, r.GolesVisitanteAlargue, r.PenalesLocal, r.PenalesVisitante)
}

// DeleteResult removes a result as fixtures does, with its outbox event.
func (e *Env) DeleteResult(partido int64) int64 {
	e.t.Helper()
	return e.outboxExec("partido_id", partido, events.ResultadoBorrado,
		`DELETE FROM fixtures.resultados WHERE partido_id = $1`, partido)
}

// outboxExec is outboxEvent of a change that is one statement.
func (e *Env) outboxExec(column string, id int64, tipo, sql string, args ...any) int64 {
	e.t.Helper()
	return e.outboxEvent(column, id, tipo, func(tx pgx.Tx) error {
		_, err := tx.Exec(context.Background(), sql, args...)
		return err
	})
}

// outboxEvent makes a change in one transaction with its outbox event, as fixtures does: the
// event names its subject in column (partido_id for a result, pregunta_id for a right answer)
// and is announced on the outbox channel unless the Env is Silent.
func (e *Env) outboxEvent(column string, id int64, tipo string, change func(pgx.Tx) error) int64 {
	e.t.Helper()
	var evento int64
	ctx := context.Background()
	err := pgx.BeginFunc(ctx, e.Admin, func(tx pgx.Tx) error {
		if err := change(tx); err != nil {
			return err
		}
		insert := `INSERT INTO fixtures.eventos (` + pgx.Identifier{column}.Sanitize() + `, tipo) VALUES ($1, $2) RETURNING id`
		if err := tx.QueryRow(ctx, insert, id, tipo).Scan(&evento); err != nil {
			return err
		}
		if e.Silent {
			return nil
		}
		_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2::bigint::text)`, events.Channel, evento)
		return err
	})
	if err != nil {
		e.t.Fatalf("%s for %s %d: %v", tipo, column, id, err)
	}
	return evento
}

// Options are the service's settings a test sets; those it leaves zero are: criterio noventa,
// a poll every minute (so that tests see NOTIFY at work), scoring.DefaultMatchesPerTransaction,
// nothing kept in the process (so that tests see every read reach Redis), the leagues' default
// maximums and no limits.
type Options = app.Settings

// App is the scoring service wired by app.Wire, as cmd/scoring wires it, connected as
// prode_scoring. Nothing runs in the background until a test starts it (Go(t, app.Run), or a
// part: Go(t, app.Consumer.Run)).
type App struct {
	*app.App
	env    *Env
	Server *httpserver.Server
	API    *testenv.API
	Pool   *pgxpool.Pool
	Redis  *redis.Client
	Prefix string
}

// Logger writes warnings and errors to the test's output.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// NewApp wires the service on the test Redis, its keys under a prefix of the test's own.
func (e *Env) NewApp(opts Options) *App {
	e.t.Helper()
	redisURL, prefix := testenv.Redis(e.t)
	return e.NewAppOn(redisURL, prefix, opts)
}

// NewAppOn wires the service on the Redis at redisURL, its keys under prefix (another App's
// Prefix, to share them).
func (e *Env) NewAppOn(redisURL, prefix string, opts Options) *App {
	t := e.t
	t.Helper()
	if opts.Criterio == "" {
		opts.Criterio = scoring.Noventa
	}
	if opts.Poll == 0 {
		opts.Poll = time.Minute
	}
	if opts.MatchesPerTransaction == 0 {
		opts.MatchesPerTransaction = scoring.DefaultMatchesPerTransaction
	}
	log := Logger(t)
	pool := e.DB.Pool(t, "scoring")
	rdb, err := cache.Connect(redisURL, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rdb.Close() })
	server := httpserver.New(httpserver.Config{Service: "scoring"}, log)
	a, err := app.Wire(server, app.Deps{
		Pool: pool, DatabaseURL: e.DB.URL("scoring"), Redis: rdb, RedisPrefix: prefix,
		Sessions: session.NewVerifier(testenv.SessionKey, pool), Zone: mustZone(t), Log: log,
		Settings: opts,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &App{App: a, env: e, Server: server, API: testenv.NewAPI(t, server.Engine), Pool: pool, Redis: rdb,
		Prefix: prefix}
}

func mustZone(t testing.TB) *time.Location {
	zone, err := time.LoadLocation("America/Argentina/Buenos_Aires")
	if err != nil {
		t.Fatal(err)
	}
	return zone
}

// Go runs f (the consumer, the repair loop) until the returned stop is called or the test
// ends; stop waits for f to return.
func Go(t testing.TB, f func(ctx context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { f(ctx) })
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// Score applies every outbox event not applied yet, as the consumer's pass does
// (Scoring.ProcessPending); an error fails the test.
func (a *App) Score(t testing.TB) {
	t.Helper()
	if _, err := a.Scoring.ProcessPending(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Metric reads a counter or gauge of the service's registry (0 when absent); labels are
// name, value pairs.
func (a *App) Metric(t testing.TB, name string, labels ...string) float64 {
	t.Helper()
	families, err := a.Server.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metrics:
		for _, m := range f.GetMetric() {
			for i := 0; i+1 < len(labels); i += 2 {
				found := false
				for _, l := range m.GetLabel() {
					if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
						found = true
					}
				}
				if !found {
					continue metrics
				}
			}
			switch {
			case m.GetCounter() != nil:
				return m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				return m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				return float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return 0
}

// Eventually retries check every 20 ms until it returns ""; past within, the test fails with
// the last message.
func Eventually(t testing.TB, within time.Duration, check func() string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		msg := check()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Proxy is a TCP relay to a Redis that a test can take away and bring back on the same
// address, as when Redis is stopped and restarted.
type Proxy struct {
	t      testing.TB
	target string
	Addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
}

// NewProxy relays 127.0.0.1:<free port> to target (host:port) and starts up.
func NewProxy(t testing.TB, target string) *Proxy {
	p := &Proxy{t: t, target: target, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.Addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Stop)
	return p
}

// Stop closes the listener and every relayed connection: Redis is gone.
func (p *Proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Start listens again on the same address: Redis is back.
func (p *Proxy) Start() {
	ln, err := net.Listen("tcp", p.Addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.serve(ln)
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", p.target)
			if err != nil {
				client.Close()
				continue
			}
			p.mu.Lock()
			if p.ln != ln { // stopped meanwhile
				p.mu.Unlock()
				client.Close()
				server.Close()
				return
			}
			p.conns[client], p.conns[server] = struct{}{}, struct{}{}
			p.mu.Unlock()
			go relay(client, server)
			go relay(server, client)
		}
	}()
}

func relay(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	dst.Close()
	src.Close()
}

// Key is a (match, player) pair.
type Key struct{ Partido, Jugador int64 }

// Row is one player's points for one match, or their totals.
type Row struct {
	Puntos, Exactos, Aciertos int
}

// StoredPoints reads scoring.puntos.
func (e *Env) StoredPoints() map[Key]Row {
	e.t.Helper()
	var k Key
	var r Row
	return stored(e, `SELECT partido_id, jugador_id, puntos, exacto::int, acierto::int FROM scoring.puntos`,
		[]any{&k.Partido, &k.Jugador, &r.Puntos, &r.Exactos, &r.Aciertos}, func() (Key, Row) { return k, r })
}

// StoredTotals reads scoring.totales_torneo summed over tournaments, leaving out all-zero rows
// (the same as no row).
func (e *Env) StoredTotals() map[int64]Row {
	e.t.Helper()
	var id int64
	var r Row
	return stored(e, `
		SELECT jugador_id, sum(puntaje)::integer, sum(exactos)::integer, sum(aciertos)::integer
		  FROM scoring.totales_torneo GROUP BY jugador_id
		HAVING (sum(puntaje), sum(exactos), sum(aciertos)) <> (0, 0, 0)`,
		[]any{&id, &r.Puntos, &r.Exactos, &r.Aciertos}, func() (int64, Row) { return id, r })
}

// stored reads the rows of query into a map: each row is scanned into scan, whose variables
// entry then turns into the row's key and value.
func stored[K comparable, V any](e *Env, query string, scan []any, entry func() (K, V)) map[K]V {
	e.t.Helper()
	rows, err := e.Admin.Query(context.Background(), query)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[K]V{}
	_, err = pgx.ForEachRow(rows, scan, func() error {
		k, v := entry()
		out[k] = v
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// Totals adds up points per player, leaving out all-zero rows as StoredTotals does: the
// totals a recomputation from scratch gives.
func Totals(points map[Key]Row) map[int64]Row {
	out := map[int64]Row{}
	for k, r := range points {
		t := out[k.Jugador]
		t.Puntos += r.Puntos
		t.Exactos += r.Exactos
		t.Aciertos += r.Aciertos
		out[k.Jugador] = t
	}
	for id, r := range out {
		if r == (Row{}) {
			delete(out, id)
		}
	}
	return out
}

// Tournament is the id of the tournament named nombre.
func (e *Env) Tournament(nombre string) int64 {
	e.t.Helper()
	var id int64
	if err := e.Admin.QueryRow(context.Background(), `SELECT id FROM fixtures.torneos WHERE nombre = $1`, nombre).Scan(&id); err != nil {
		e.t.Fatalf("tournament %q: %v", nombre, err)
	}
	return id
}

// MakeCurrent makes the tournament named nombre the current one, as the organiser does.
func (e *Env) MakeCurrent(nombre string) {
	e.t.Helper()
	e.Exec(`UPDATE fixtures.torneos SET actual = false WHERE actual`)
	e.Exec(`UPDATE fixtures.torneos SET actual = true WHERE nombre = $1`, nombre)
}

// StandingsVersion is the current tournament and its standings version as PostgreSQL has them
// now: the newest snapshot and the newest player.
func (e *Env) StandingsVersion(t testing.TB) (torneo int64, v standings.Version) {
	t.Helper()
	err := e.Admin.QueryRow(context.Background(), `
		SELECT t.id, coalesce((SELECT max(id) FROM scoring.tablas_compactas WHERE torneo_id = t.id), 0),
		       (SELECT coalesce(max(id), 0) FROM players.jugadores)
		  FROM fixtures.torneos t WHERE t.actual`).Scan(&torneo, &v.Tabla, &v.Jugadores)
	if err != nil {
		t.Fatal(err)
	}
	return torneo, v
}

// NoonDaysAgo is noon in the game's time zone, days ago: matches a few hours apart from it
// fall on one matchday whatever the hour the test runs (from now-72h, four hourly matches
// straddled midnight when the tests ran just after it, and the table gained a movement).
func NoonDaysAgo(t testing.TB, days int) time.Time {
	y, m, d := time.Now().In(mustZone(t)).Date()
	return time.Date(y, m, d-days, 12, 0, 0, 0, mustZone(t))
}
