package scoring_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"prode/platform/testenv"
	"prode/scoring/internal/scoring"
	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

type prediction struct{ local, visitante int }

type match struct {
	id       int64
	knockout bool
}

// Entering, correcting, deleting and replaying results in random orders — events applied late,
// twice, out of order, matches scored concurrently, the knock-out setting switched between
// rounds — always ends where a recomputation from scratch of the final results does. The
// expected points are computed here, from the final results, with the test's own table.
func TestAnyOrderEqualsRecomputation(t *testing.T) {
	const seed = 2022_12_18
	rng := rand.New(rand.NewPCG(seed, seed))
	t.Logf("seed %d", seed)
	e := scoringtest.New(t)
	ctx := context.Background()
	kickoff := time.Now().Add(-48 * time.Hour)

	var matches []match
	for i, cat := range []string{"Grupo A", "Grupo B", "Grupo C", "Grupo D", "Octavos de final", "Semifinales", "Final"} {
		id := e.Match(cat, "ARG", "FRA", kickoff.Add(time.Duration(i)*time.Hour))
		matches = append(matches, match{id: id, knockout: i >= 4})
	}
	predictions := map[scoringtest.Key]prediction{}
	for _, name := range []string{"ana", "beto", "caro", "dani", "eli", "fede", "gabi", "hugo"} {
		p := e.Player(name)
		for _, m := range matches {
			if rng.IntN(5) == 0 {
				continue // not every player predicts every match
			}
			pr := prediction{rng.IntN(4), rng.IntN(4)}
			e.Predict(p, m.id, pr.local, pr.visitante)
			predictions[scoringtest.Key{Partido: m.id, Jugador: p.ID}] = pr
		}
	}

	results := map[int64]scoringtest.Result{} // the current result of each match; absent: none
	randomResult := func(m match) scoringtest.Result {
		r := scoringtest.Result{GolesLocal: rng.IntN(4), GolesVisitante: rng.IntN(4)}
		if m.knockout && rng.IntN(2) == 0 {
			r.GolesLocalAlargue = scoringtest.Int(r.GolesLocal + rng.IntN(2))
			r.GolesVisitanteAlargue = scoringtest.Int(r.GolesVisitante + rng.IntN(2))
			if *r.GolesLocalAlargue == *r.GolesVisitanteAlargue {
				r.PenalesLocal, r.PenalesVisitante = scoringtest.Int(rng.IntN(6)), scoringtest.Int(rng.IntN(6))
			}
		}
		return r
	}

	criterios := []scoring.Criterio{scoring.Noventa, scoring.Alargue, scoring.Alargue, scoring.Noventa, scoring.Alargue, scoring.Noventa}
	carried := 0.0 // snapshots carried ahead of the points rows: the fast path is what is tested
	for round, criterio := range criterios {
		// A restart with this round's setting: its first pass rescores everything when the
		// setting changed.
		// Every other round, one match per transaction: a pass carries each match while the
		// rows of the ones before are still being written.
		app := e.NewApp(scoringtest.Options{Criterio: criterio, MatchesPerTransaction: 1 + round%2*(scoring.DefaultMatchesPerTransaction-1)})
		var eventos []int64
		for step := 0; step < 40; step++ {
			m := matches[rng.IntN(len(matches))]
			switch op := rng.IntN(8); op {
			case 0, 1: // enter or correct a result
				r := randomResult(m)
				results[m.id] = r
				eventos = append(eventos, e.SetResult(m.id, r))
			case 2: // delete it
				if _, ok := results[m.id]; ok {
					delete(results, m.id)
					eventos = append(eventos, e.DeleteResult(m.id))
				}
			case 3: // enter the same result again
				if r, ok := results[m.id]; ok {
					eventos = append(eventos, e.SetResult(m.id, r))
				}
			case 4: // forget some applied events, so that they are replayed late
				forgetSome(rng, e, eventos)
			case 5: // apply what is pending
				app.Score(t)
			case 6: // score matches out of band, the same one twice at once
				other := matches[rng.IntN(len(matches))]
				score := func(id int64) func() error {
					return func() error { return app.Scoring.ScoreMatch(ctx, id, nil) }
				}
				atOnce(t, score(m.id), score(m.id), score(other.id))
			case 7: // two passes at once (two replicas)
				twoPasses(t, app)
			}
		}
		app.Score(t)

		want := expectedPoints(matches, predictions, results, criterio)
		if got := e.StoredPoints(); !maps.Equal(got, want) {
			t.Fatalf("round %d (%s): points\n got %v\nwant %v", round, criterio, got, want)
		}
		if got, want := e.StoredTotals(), scoringtest.Totals(want); !maps.Equal(got, want) {
			t.Fatalf("round %d (%s): totals\n got %v\nwant %v", round, criterio, got, want)
		}
		tableEqualsRecomputation(t, e, scoringtest.Totals(want))
		carried += app.Metric(t, "prode_standings_snapshots_total", "how", "carried")
		var criterioStored string
		if err := e.Admin.QueryRow(ctx, `SELECT criterio FROM scoring.estado`).Scan(&criterioStored); err != nil {
			t.Fatal(err)
		}
		if pending := pendingEvents(t, e); pending != 0 || criterioStored != string(criterio) {
			t.Fatalf("round %d: %d events pending, criterio stored %q; want 0 and %q", round, pending, criterioStored, criterio)
		}
		t.Logf("round %d (%s): %d results, %d points rows, %d events", round, criterio, len(results), len(want), len(eventos))
	}
	t.Logf("%.0f snapshots carried ahead of the points rows", carried)
	if carried < 10 {
		t.Errorf("%.0f snapshots carried ahead of the points rows in all rounds; the rest were ranked from the totals", carried)
	}
}

// A full rescore (a new knock-out setting) ends where a recomputation does also when predictions
// of matches with a result were written behind scoring's back (by hand, or saved as an organiser
// entered a result early): they were never scored, so the newest table does not count them.
func TestAFullRescoreCountsPredictionsNeverScored(t *testing.T) {
	e := scoringtest.New(t)
	kickoff := time.Now().Add(-48 * time.Hour)
	matches := []match{{id: e.Match("Grupo A", "ARG", "FRA", kickoff)}, {id: e.Match("Final", "ARG", "FRA", kickoff.Add(time.Hour)), knockout: true}}
	predictions := map[scoringtest.Key]prediction{}
	predict := func(p testenv.Player, m match, pr prediction) {
		e.Predict(p, m.id, pr.local, pr.visitante)
		predictions[scoringtest.Key{Partido: m.id, Jugador: p.ID}] = pr
	}
	ana, beto := e.Player("ana"), e.Player("beto")
	predict(ana, matches[0], prediction{2, 1})
	predict(beto, matches[1], prediction{1, 1})
	results := map[int64]scoringtest.Result{
		matches[0].id: {GolesLocal: 2, GolesVisitante: 1},
		matches[1].id: {GolesLocal: 1, GolesVisitante: 1, GolesLocalAlargue: scoringtest.Int(2), GolesVisitanteAlargue: scoringtest.Int(1)},
	}
	for _, m := range matches {
		e.SetResult(m.id, results[m.id])
	}
	e.NewApp(scoringtest.Options{Criterio: scoring.Noventa}).Score(t)

	zoe := e.Player("zoe")
	predict(zoe, matches[0], prediction{2, 1})
	predict(zoe, matches[1], prediction{2, 1})
	predict(beto, matches[0], prediction{3, 0})
	e.NewApp(scoringtest.Options{Criterio: scoring.Alargue}).Score(t)

	want := expectedPoints(matches, predictions, results, scoring.Alargue)
	if got := e.StoredPoints(); !maps.Equal(got, want) {
		t.Fatalf("points\n got %v\nwant %v", got, want)
	}
	tableEqualsRecomputation(t, e, scoringtest.Totals(want))
}

// tableEqualsRecomputation reads the whole table through another replica (a process that ranked
// none of it) and checks it against the recomputed totals: every player's points, and the
// standings' order and ranks.
func tableEqualsRecomputation(t *testing.T, e *scoringtest.Env, totals map[int64]scoringtest.Row) {
	t.Helper()
	replica := e.NewApp(scoringtest.Options{})
	var rows []store.Posicion
	for pagina := 1; ; pagina++ {
		res := replica.API.Do(http.MethodGet, fmt.Sprintf("/api/posiciones?pagina=%d&por_pagina=3", pagina), nil)
		var p store.Pagina
		res.Decode(t, &p)
		if res.Status != http.StatusOK || len(p.Posiciones) == 0 {
			t.Fatalf("page %d of the table: %d %s", pagina, res.Status, res.Body)
		}
		rows = append(rows, p.Posiciones...)
		if int64(len(rows)) >= p.Total {
			break
		}
	}
	for i, r := range rows {
		w := totals[r.ID]
		if r.Puntaje != int64(w.Puntos) || r.Exactos != int64(w.Exactos) || r.Aciertos != int64(w.Aciertos) {
			t.Fatalf("%s: %d points, %d exact, %d right in the table; the recomputation gives %+v", r.Nombre, r.Puntaje, r.Exactos, r.Aciertos, w)
		}
		if i == 0 {
			if r.Posicion != 1 {
				t.Fatalf("the first row is ranked %d", r.Posicion)
			}
			continue
		}
		prev := rows[i-1]
		// Points, exact hits, right outcomes from the highest; then registration (id).
		order := func(p store.Posicion) []int64 { return []int64{p.Puntaje, p.Exactos, p.Aciertos, -p.ID} }
		if slices.Compare(order(prev), order(r)) <= 0 {
			t.Fatalf("%s (%+v) comes after %s (%+v)", r.Nombre, r, prev.Nombre, prev)
		}
		want := prev.Posicion
		if r.Puntaje != prev.Puntaje {
			want = int64(i) + 1
		}
		if r.Posicion != want {
			t.Fatalf("%s is ranked %d, want %d", r.Nombre, r.Posicion, want)
		}
	}
}

// expectedPoints scores every prediction of every match with a result, from scratch.
func expectedPoints(matches []match, predictions map[scoringtest.Key]prediction, results map[int64]scoringtest.Result, criterio scoring.Criterio) map[scoringtest.Key]scoringtest.Row {
	knockout := map[int64]bool{}
	for _, m := range matches {
		knockout[m.id] = m.knockout
	}
	out := map[scoringtest.Key]scoringtest.Row{}
	for k, p := range predictions {
		r, ok := results[k.Partido]
		if !ok {
			continue
		}
		local, visitante := r.GolesLocal, r.GolesVisitante
		if criterio == scoring.Alargue && knockout[k.Partido] && r.GolesLocalAlargue != nil {
			local, visitante = *r.GolesLocalAlargue, *r.GolesVisitanteAlargue
		}
		puntos, exacto, acierto := scoringtest.Points(p.local, p.visitante, local, visitante)
		out[k] = scoringtest.Row{Puntos: puntos, Exactos: b2i(exacto), Aciertos: b2i(acierto)}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
