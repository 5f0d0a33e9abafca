package main_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"prode/platform/testenv"
	"prode/scoring/internal/ranked"
	"prode/scoring/internal/scoringtest"
)

// TestSIGKILLMidBatchScoresEachResultOnceInEffect runs the real scoring binary on a league
// (150 players × 240 matches, a prediction each), enters every result in one batch, and
// SIGKILLs the process while it is applying the batch; while it is dead the organiser
// corrects and deletes some results; a second process is SIGKILLed mid-way too; a third
// finishes. Then every match's points (scoring.puntos) and every player's totals
// (scoring.totales_torneo) must equal a recomputation from scratch with scoring.puntos_de over the
// final results: no result lost, none counted twice, none left at an old value.
func TestSIGKILLMidBatchScoresEachResultOnceInEffect(t *testing.T) {
	const players, matches = 150, 240
	arranging := time.Now()
	l := newLeague(t, players, matches)
	arranged := time.Since(arranging)
	redisURL, prefix := testenv.Redis(t)
	bin := testenv.Build(t, ".")

	// 8 matches per transaction, not 64: 30 transactions for the batch, so that each kill lands
	// in the middle of it however fast the machine is.
	small := "SCORING_MATCHES_PER_TRANSACTION=8"
	first := startScoring(t, bin, l, redisURL, prefix, small)
	l.enterResults(l.matches, 0)
	events := l.pending()
	start := time.Now()
	appliedAtFirstKill := killWhenApplied(t, first, l, events, events/3)

	// While no scorer runs: every 7th result corrected, every 13th deleted, as fixtures does.
	var corrected, deleted []int64
	for i, m := range l.matches {
		switch {
		case i%13 == 0:
			deleted = append(deleted, m)
		case i%7 == 0:
			corrected = append(corrected, m)
		}
	}
	l.enterResults(corrected, 1)
	for _, m := range deleted {
		l.e.DeleteResult(m)
	}
	events = l.count(`SELECT count(*) FROM fixtures.eventos`)

	// The second process catches up at once: kill it half-way through what is left once it is ready.
	second := startScoring(t, bin, l, redisURL, prefix, small)
	appliedAtReady := l.count(`SELECT count(*) FROM scoring.eventos_procesados`)
	appliedAtSecondKill := killWhenApplied(t, second, l, events, appliedAtReady+(events-appliedAtReady)/2)

	third := startScoring(t, bin, l, redisURL, prefix, small)
	finishedAfter := l.waitScored(20 * time.Second)
	total := time.Since(start)

	diffPoints, diffTotals, scored := l.recomputationDiffers()
	// The last process ranks the table once it has applied the last event: its snapshot is the
	// recomputation's table.
	scoringtest.Eventually(t, 10*time.Second, l.snapshotDiffers)
	if diffPoints != 0 || diffTotals != 0 {
		t.Errorf("against a recomputation from scratch: %d rows of scoring.puntos and %d of scoring.totales_torneo differ (%d scored predictions)",
			diffPoints, diffTotals, scored)
	}
	if scored == 0 {
		t.Error("nothing was scored")
	}
	select {
	case <-third.Exited():
		t.Errorf("the last scoring process exited\n%s", third.ErrorLogs())
	default:
	}
	t.Logf("%d players, %d matches, %d predictions (arranged in %s); %d outbox events (%d results, then %d corrections and %d deletions)",
		players, matches, players*matches, arranged.Round(time.Millisecond), events, matches, len(corrected), len(deleted))
	t.Logf("killed with %d of %d and %d of %d events applied; the third process finished %s after starting; %s from the batch to all applied",
		appliedAtFirstKill, matches, appliedAtSecondKill, events, finishedAfter.Round(time.Millisecond), total.Round(time.Millisecond))
	t.Logf("scoring.puntos and scoring.totales_torneo equal the recomputation: %d scored predictions, %d rows differ", scored, diffPoints+diffTotals)
}

// killWhenApplied SIGKILLs the process once at least target of the events outbox events are
// applied, and returns how many were applied then. It fails the test if the process applied
// them all first: the kill would not have been in the middle of the batch.
func killWhenApplied(t testing.TB, b *testenv.Binary, l *league, events, target int) int {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for l.count(`SELECT count(*) FROM scoring.eventos_procesados`) < target {
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d events applied within 15 s\n%s", target, b.ErrorLogs())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A match being scored holds its advisory lock until its transaction ends. Figure only: the
	// transaction seen here may still commit before the signal lands.
	open := l.count(`SELECT count(*) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
	b.Kill()
	applied := l.count(`SELECT count(*) FROM scoring.eventos_procesados`)
	t.Logf("SIGKILL with %d of %d events applied; matches being scored just before: %d", applied, events, open)
	if applied >= events {
		t.Fatalf("all %d events were applied before the kill: make the batch bigger", events)
	}
	return applied
}

// freshPoints is every prediction's points from scratch (scoring.puntos_de) against its match's
// result; all matches are group matches, so the knock-out setting plays no part.
const freshPoints = `
	SELECT a.partido_id, a.jugador_id,
	       scoring.puntos_de(a.goles_local, a.goles_visitante, r.goles_local, r.goles_visitante) AS puntos,
	       a.goles_local = r.goles_local AND a.goles_visitante = r.goles_visitante AS exacto,
	       sign(a.goles_local - a.goles_visitante) = sign(r.goles_local - r.goles_visitante) AS acierto
	  FROM predictions.apuestas a JOIN fixtures.resultados r USING (partido_id)`

// snapshotDiffers compares the newest standings snapshot, as the scoring process ranked it,
// with the table ranked in SQL from points recomputed from scratch: the same players in the
// same order with the same points and ranks. It says the first difference ("" when none).
func (l *league) snapshotDiffers() string {
	l.t.Helper()
	ctx := context.Background()
	var datos []byte
	if err := l.e.Admin.QueryRow(ctx, `SELECT datos FROM scoring.tablas_compactas ORDER BY id DESC LIMIT 1`).Scan(&datos); err != nil {
		return fmt.Sprintf("no snapshot: %v", err)
	}
	table, err := ranked.Decode(datos)
	if err != nil {
		l.t.Fatal(err)
	}
	rows, err := l.e.Admin.Query(ctx, `
		WITH fresh AS (`+freshPoints+`),
		totals AS (
		    SELECT jugador_id, sum(puntos) AS puntaje, count(*) FILTER (WHERE exacto) AS exactos,
		           count(*) FILTER (WHERE acierto) AS aciertos
		      FROM fresh GROUP BY jugador_id)
		SELECT j.id, coalesce(t.puntaje, 0)::integer, rank() OVER (ORDER BY coalesce(t.puntaje, 0) DESC)::integer
		  FROM players.jugadores j LEFT JOIN totals t ON t.jugador_id = j.id
		 ORDER BY coalesce(t.puntaje, 0) DESC, coalesce(t.exactos, 0) DESC, coalesce(t.aciertos, 0) DESC, j.id`)
	if err != nil {
		l.t.Fatal(err)
	}
	type row struct {
		Jugador           int64
		Puntaje, Posicion int32
	}
	want, err := pgx.CollectRows(rows, pgx.RowToStructByPos[row])
	if err != nil {
		l.t.Fatal(err)
	}
	if table.Len() != int64(len(want)) {
		return fmt.Sprintf("the snapshot has %d rows, the recomputation %d", table.Len(), len(want))
	}
	for i, w := range want {
		if r := table.Row(int64(i) + 1); (row{r.Jugador, r.Puntaje, r.Posicion}) != w {
			return fmt.Sprintf("row %d: player %d, %d points, rank %d; the recomputation ranks player %d, %d points, rank %d",
				i+1, r.Jugador, r.Puntaje, r.Posicion, w.Jugador, w.Puntaje, w.Posicion)
		}
	}
	return ""
}

// recomputationDiffers compares scoring.puntos and scoring.totales_torneo with points computed from
// scratch (scoring.puntos_de, every prediction of every match with a result; all matches are
// group matches, so the knock-out setting plays no part) and returns how many rows differ in
// each, and how many predictions the recomputation scored.
func (l *league) recomputationDiffers() (points, totals, scored int) {
	l.t.Helper()
	err := l.e.Admin.QueryRow(context.Background(), `
		WITH fresh AS (`+freshPoints+`),
		stored AS (SELECT partido_id, jugador_id, puntos, exacto, acierto FROM scoring.puntos),
		fresh_totals AS (
		    SELECT p.torneo_id, f.jugador_id, sum(f.puntos)::integer AS puntaje,
		           count(*) FILTER (WHERE f.exacto)::integer AS exactos, count(*) FILTER (WHERE f.acierto)::integer AS aciertos
		      FROM fresh f JOIN fixtures.partidos p ON p.id = f.partido_id GROUP BY p.torneo_id, f.jugador_id),
		nonzero AS (SELECT * FROM fresh_totals WHERE (puntaje, exactos, aciertos) <> (0, 0, 0)),
		stored_totals AS (
		    SELECT torneo_id, jugador_id, puntaje, exactos, aciertos FROM scoring.totales_torneo
		     WHERE (puntaje, exactos, aciertos) <> (0, 0, 0))
		SELECT (SELECT count(*) FROM ((SELECT * FROM fresh EXCEPT SELECT * FROM stored)
		                              UNION ALL (SELECT * FROM stored EXCEPT SELECT * FROM fresh)) d),
		       (SELECT count(*) FROM ((SELECT * FROM nonzero EXCEPT SELECT * FROM stored_totals)
		                              UNION ALL (SELECT * FROM stored_totals EXCEPT SELECT * FROM nonzero)) d),
		       (SELECT count(*) FROM fresh)`).Scan(&points, &totals, &scored)
	if err != nil {
		l.t.Fatal(err)
	}
	return points, totals, scored
}
