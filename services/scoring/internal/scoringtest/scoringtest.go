// Package scoringtest arranges what scoring's tests need on the real things: a migrated
// PostgreSQL database of the test's own with matches, players, predictions and results written
// the way the other services write them (a result and its outbox event in one transaction,
// then pg_notify), the scoring service wired as cmd/scoring wires it (app.Wire), and an
// independent reference of the points table.
package scoringtest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/events"
	"prode/platform/testenv"
	"prode/platform/wire"
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
