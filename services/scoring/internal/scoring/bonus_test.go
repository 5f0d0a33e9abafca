package scoring_test

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"prode/scoring/internal/scoring"
	"prode/scoring/internal/scoringtest"
)

type question struct {
	id       int64
	puntos   int
	opciones []int64
}

// Entering, correcting (other options, ties of two), clearing and replaying bonus questions'
// right answers in random orders, mixed with a match's results — events applied late, twice,
// concurrently, a full rescore after the knock-out setting changed — always ends where a
// recomputation from scratch does: every answer among the right options earns its question's
// puntos, the totals' puntaje is match points plus bonus points and bonus is the latter.
func TestBonusAnyOrderEqualsRecomputation(t *testing.T) {
	const seed = 2026_07_19
	rng := rand.New(rand.NewPCG(seed, seed))
	e := scoringtest.New(t)
	ctx := context.Background()
	partido := e.Match("Grupo A", "ARG", "FRA", time.Now().Add(-48*time.Hour))
	torneo := e.Tournament("test")
	var questions []question
	for i, puntos := range []int{5, 10, 20} {
		id, ops := e.Question(torneo, puntos, "Argentina", "Francia", "Brasil", []string{"Croacia", "Marruecos", "Inglaterra"}[i])
		questions = append(questions, question{id: id, puntos: puntos, opciones: ops})
	}
	answers := map[scoringtest.BonusKey]int64{}
	predictions := map[scoringtest.Key]prediction{}
	for _, name := range []string{"ana", "beto", "caro", "dani", "eli", "fede"} {
		p := e.Player(name)
		pr := prediction{rng.IntN(3), rng.IntN(3)}
		e.Predict(p, partido, pr.local, pr.visitante)
		predictions[scoringtest.Key{Partido: partido, Jugador: p.ID}] = pr
		for _, q := range questions {
			if rng.IntN(4) == 0 {
				continue
			}
			o := q.opciones[rng.IntN(len(q.opciones))]
			e.Answer(p, q.id, o)
			answers[scoringtest.BonusKey{Pregunta: q.id, Jugador: p.ID}] = o
		}
	}

	right := map[int64][]int64{} // current right options per question; absent: none
	results := map[int64]scoringtest.Result{}
	for round, criterio := range []scoring.Criterio{scoring.Noventa, scoring.Alargue, scoring.Noventa} {
		app := e.NewApp(scoringtest.Options{Criterio: criterio})
		var eventos []int64
		for step := 0; step < 40; step++ {
			q := questions[rng.IntN(len(questions))]
			switch rng.IntN(8) {
			case 0, 1: // enter or correct: one option, sometimes a tie of two
				opts := []int64{q.opciones[rng.IntN(len(q.opciones))]}
				if rng.IntN(3) == 0 {
					opts = append(opts, q.opciones[rng.IntN(len(q.opciones))])
				}
				opts = slices.Compact(slices.Sorted(slices.Values(opts)))
				right[q.id] = opts
				eventos = append(eventos, e.SetRightAnswer(q.id, opts...))
			case 2: // clear
				if _, ok := right[q.id]; ok {
					delete(right, q.id)
					eventos = append(eventos, e.ClearRightAnswer(q.id))
				}
			case 3: // the same right answer again
				if opts, ok := right[q.id]; ok {
					eventos = append(eventos, e.SetRightAnswer(q.id, opts...))
				}
			case 4: // forget applied events, to replay them late
				forgetSome(rng, e, eventos)
			case 5: // the match's result changes too
				r := scoringtest.Result{GolesLocal: rng.IntN(3), GolesVisitante: rng.IntN(3)}
				results[partido] = r
				eventos = append(eventos, e.SetResult(partido, r))
			case 6: // one question scored out of band, twice at once
				score := func() error { return app.Scoring.ScoreQuestion(ctx, q.id, nil) }
				atOnce(t, score, score)
			case 7: // two passes at once (two replicas)
				twoPasses(t, app)
			}
		}
		app.Score(t)

		wantBonus := map[scoringtest.BonusKey]int{}
		bonusTotals := map[int64]int{}
		for k, o := range answers {
			opts, ok := right[k.Pregunta]
			if !ok {
				continue
			}
			for _, q := range questions {
				if q.id == k.Pregunta {
					wantBonus[k] = 0
					if slices.Contains(opts, o) {
						wantBonus[k] = q.puntos
						bonusTotals[k.Jugador] += q.puntos
					}
				}
			}
		}
		if got := e.StoredBonusPoints(); !maps.Equal(got, wantBonus) {
			t.Fatalf("round %d: bonus points\n got %v\nwant %v", round, got, wantBonus)
		}
		if got := e.StoredBonusTotals(); !maps.Equal(got, bonusTotals) {
			t.Fatalf("round %d: bonus totals\n got %v\nwant %v", round, got, bonusTotals)
		}
		wantTotals := scoringtest.Totals(expectedPoints([]match{{id: partido}}, predictions, results, criterio))
		for id, b := range bonusTotals {
			r := wantTotals[id]
			r.Puntos += b
			wantTotals[id] = r
		}
		if got := e.StoredTotals(); !maps.Equal(got, wantTotals) {
			t.Fatalf("round %d: totals (puntaje with bonus)\n got %v\nwant %v", round, got, wantTotals)
		}
		if pending := pendingEvents(t, e); pending != 0 {
			t.Fatalf("round %d: %d events pending", round, pending)
		}
		t.Logf("round %d (%s): %d right answers, %d bonus rows, %d events", round, criterio, len(right), len(wantBonus), len(eventos))
	}
}
