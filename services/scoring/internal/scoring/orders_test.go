package scoring_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"prode/scoring/internal/scoringtest"
)

// The steps that the any-order tests of results (service_test.go) and of bonus questions'
// right answers (bonus_test.go) both take.

// atOnce makes the calls at the same time and waits for them all; an error fails the test.
func atOnce(t *testing.T, calls ...func() error) {
	var wg sync.WaitGroup
	for _, call := range calls {
		wg.Go(func() {
			if err := call(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// twoPasses applies what is pending with two passes at once, as two replicas do.
func twoPasses(t *testing.T, app *scoringtest.App) {
	pass := func() error {
		_, err := app.Scoring.ProcessPending(context.Background())
		return err
	}
	atOnce(t, pass, pass)
}

// forgetSome forgets about a third of the applied eventos, so that they are replayed late.
func forgetSome(rng *rand.Rand, e *scoringtest.Env, eventos []int64) {
	var forget []int64
	for _, id := range eventos {
		if rng.IntN(3) == 0 {
			forget = append(forget, id)
		}
	}
	e.Exec(`DELETE FROM scoring.eventos_procesados WHERE evento_id = ANY($1)`, forget)
}

// pendingEvents counts the outbox events not applied.
func pendingEvents(t *testing.T, e *scoringtest.Env) int {
	t.Helper()
	var pending int
	if err := e.Admin.QueryRow(context.Background(), `SELECT count(*) FROM fixtures.eventos e WHERE NOT EXISTS (
		SELECT FROM scoring.eventos_procesados p WHERE p.evento_id = e.id)`).Scan(&pending); err != nil {
		t.Fatal(err)
	}
	return pending
}
