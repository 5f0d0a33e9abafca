package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"prode/platform/testenv"
)

// pageReaders are eight clients reading standings pages in a steady loop, as a match day's
// watchers do: client w reads page w%4+1 (50 rows) of replicas[w%len(replicas)]. An answer
// other than a 200 page of 50 rows, or no answer, fails the load.
type pageReaders struct {
	begin   time.Time
	running *testenv.RunningLoad

	mu      sync.Mutex
	answers []pageAnswer
}

// pageAnswer is when a read started (since the load began) and how long its answer took.
type pageAnswer struct{ at, took time.Duration }

func readPages(replicas ...*testenv.Binary) *pageReaders {
	r := &pageReaders{begin: time.Now()}
	r.running = testenv.StartLoad(testenv.Load{Workers: 8, Send: func(client *http.Client, w int) error {
		svc, page := replicas[w%len(replicas)], w%4+1
		start := time.Now()
		res, err := client.Get(svc.URL(fmt.Sprintf("/api/posiciones?pagina=%d&por_pagina=50", page)))
		a := pageAnswer{at: start.Sub(r.begin), took: time.Since(start)}
		r.mu.Lock()
		r.answers = append(r.answers, a)
		r.mu.Unlock()
		at := a.at.Round(time.Millisecond)
		if err != nil {
			return fmt.Errorf("at %s: %w", at, err)
		}
		defer res.Body.Close()
		var p struct {
			Posiciones []json.RawMessage `json:"posiciones"`
		}
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("at %s: GET /api/posiciones page %d: %d", at, page, res.StatusCode)
		}
		if err := json.NewDecoder(res.Body).Decode(&p); err != nil || len(p.Posiciones) != 50 {
			return fmt.Errorf("at %s: GET /api/posiciones page %d: %d rows (decode: %v), want 50", at, page, len(p.Posiciones), err)
		}
		return nil
	}})
	return r
}

// since is how long ago the load began.
func (r *pageReaders) since() time.Duration { return time.Since(r.begin) }

// stop ends the load and returns its figures and every answer, in the order they came.
func (r *pageReaders) stop() (testenv.LoadFigures, []pageAnswer) {
	figures := r.running.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	return figures, r.answers
}

// slowest is the longest answer among those that started in [from, to).
func slowest(answers []pageAnswer, from, to time.Duration) (n int, took time.Duration) {
	for _, a := range answers {
		if a.at >= from && a.at < to {
			n++
			took = max(took, a.took)
		}
	}
	return n, took
}
