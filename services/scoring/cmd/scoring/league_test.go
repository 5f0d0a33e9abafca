package main_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"prode/platform/events"
	"prode/platform/testenv"
	"prode/scoring/internal/scoringtest"
)

// league is a tournament arranged in bulk for the process-level tests: players, group matches
// and a prediction of every player for every match, written as the other services write them.
// Scores are fixed functions of the ids, so that points vary across players and matches.
type league struct {
	t       testing.TB
	e       *scoringtest.Env
	matches []int64
}

func newLeague(t testing.TB, players, matches int) *league {
	t.Helper()
	e := scoringtest.New(t)
	l := &league{t: t, e: e}
	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre)
		SELECT 'test:' || n, 'jugador' || n || '@prode.test', 'Jugador ' || n FROM generate_series(1, $1) n`, players)
	rows, err := e.Admin.Query(context.Background(), `
		INSERT INTO fixtures.partidos (torneo, numero, categoria, local, visitante, inicio)
		SELECT 'Liga', n, 'Grupo A', 'ARG', 'FRA', now() - interval '1 day' FROM generate_series(1, $1) n
		RETURNING id`, matches)
	if err != nil {
		t.Fatal(err)
	}
	l.matches, err = pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	e.Exec(`INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
		SELECT j.id, j.email, p.id, (j.id * 7 + p.id * 3) % 4, (j.id * 5 + p.id * 11) % 3
		  FROM players.jugadores j CROSS JOIN fixtures.partidos p`)
	return l
}

// enterResults enters a result for each match in one transaction, each with its outbox event,
// and one NOTIFY: a batch as a tournament import or a busy organiser leaves it. variant moves
// the scores, so that a second call corrects the results.
func (l *league) enterResults(matches []int64, variant int) {
	l.t.Helper()
	if err := l.tryEnterResults(matches, variant); err != nil {
		l.t.Fatalf("enter results: %v", err)
	}
}

// tryEnterResults is enterResults for a database that may be down: the error, not a failed test.
func (l *league) tryEnterResults(matches []int64, variant int) error {
	ctx := context.Background()
	return pgx.BeginFunc(ctx, l.e.Admin, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO fixtures.resultados (partido_id, goles_local, goles_visitante)
			SELECT id, (id + $2) % 4, (id * 7 + $2) % 3 FROM unnest($1::bigint[]) id
			ON CONFLICT (partido_id) DO UPDATE
			   SET goles_local = EXCLUDED.goles_local, goles_visitante = EXCLUDED.goles_visitante, cargado = now()`,
			matches, variant); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO fixtures.eventos (partido_id, tipo) SELECT id, $2 FROM unnest($1::bigint[]) id`,
			matches, events.ResultadoCargado); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `SELECT pg_notify($1, '0')`, events.Channel)
		return err
	})
}

// pending is how many outbox events scoring has not applied.
func (l *league) pending() int {
	l.t.Helper()
	return l.count(`SELECT count(*) FROM fixtures.eventos e
		WHERE NOT EXISTS (SELECT FROM scoring.eventos_procesados p WHERE p.evento_id = e.id)`)
}

func (l *league) count(sql string) int {
	l.t.Helper()
	var n int
	if err := l.e.Admin.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		l.t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// waitScored waits until scoring has applied every outbox event and returns how long it took.
func (l *league) waitScored(within time.Duration) time.Duration {
	l.t.Helper()
	start := time.Now()
	scoringtest.Eventually(l.t, within, func() string {
		if n := l.pending(); n > 0 {
			return "outbox events still pending"
		}
		return ""
	})
	return time.Since(start)
}

// version is the newest standings version (snapshot) in PostgreSQL.
func (l *league) version() int64 {
	l.t.Helper()
	return int64(l.count(`SELECT coalesce(max(id), 0) FROM scoring.tablas_compactas`))
}

// startScoring runs the real scoring binary on the league's database with redisURL and prefix,
// polling the outbox every 500 ms besides NOTIFY.
func startScoring(t testing.TB, bin string, l *league, redisURL, prefix string, env ...string) *testenv.Binary {
	t.Helper()
	return testenv.Start(t, bin, append([]string{"DATABASE_URL=" + l.e.DB.URL("scoring"),
		"REDIS_URL=" + redisURL, "REDIS_PREFIX=" + prefix, "POLL_INTERVAL=500ms"}, env...)...)
}
