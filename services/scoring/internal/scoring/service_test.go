package scoring_test

import (
	"context"
	"maps"
	"math/rand/v2"
	"testing"
	"time"

	"prode/scoring/internal/scoring"
	"prode/scoring/internal/scoringtest"
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
	for round, criterio := range criterios {
		// A restart with this round's setting: its first pass rescores everything when the
		// setting changed.
		app := e.NewApp(scoringtest.Options{Criterio: criterio})
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
		var criterioStored string
		if err := e.Admin.QueryRow(ctx, `SELECT criterio FROM scoring.estado`).Scan(&criterioStored); err != nil {
			t.Fatal(err)
		}
		if pending := pendingEvents(t, e); pending != 0 || criterioStored != string(criterio) {
			t.Fatalf("round %d: %d events pending, criterio stored %q; want 0 and %q", round, pending, criterioStored, criterio)
		}
		t.Logf("round %d (%s): %d results, %d points rows, %d events", round, criterio, len(results), len(want), len(eventos))
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
