package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"prode/platform/testenv"
)

// TestSIGTERMUnderSteadyRequestsDropsNothing builds the real scoring binary on a scored league,
// keeps eight clients reading standings pages (GET /api/posiciones, pages 1 to 5 of 40 rows,
// so that Redis, the process's own pages and PostgreSQL all answer) in a steady loop, sends
// SIGTERM, and checks through testenv.SIGTERMUnderLoad that no request fails and the process
// (HTTP drain, then the outbox consumer and the cache repair loop) exits 0 within its grace
// period. Each answer must be 200 with a full page.
func TestSIGTERMUnderSteadyRequestsDropsNothing(t *testing.T) {
	l := newLeague(t, 200, 20)
	l.enterResults(l.matches, 0)
	redisURL, prefix := testenv.Redis(t)
	bin := testenv.Build(t, ".")
	svc := startScoring(t, bin, l, redisURL, prefix)
	l.waitScored(10 * time.Second)

	testenv.SIGTERMUnderLoad(t, svc, testenv.Load{Workers: 8, Send: func(client *http.Client, w int) error {
		page := w%5 + 1
		res, err := client.Get(svc.URL(fmt.Sprintf("/api/posiciones?pagina=%d&por_pagina=40", page)))
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /api/posiciones page %d: %d", page, res.StatusCode)
		}
		var p struct {
			Posiciones []json.RawMessage `json:"posiciones"`
		}
		if err := json.NewDecoder(res.Body).Decode(&p); err != nil || len(p.Posiciones) != 40 {
			return fmt.Errorf("GET /api/posiciones page %d: %d rows (decode: %v), want 40", page, len(p.Posiciones), err)
		}
		return nil
	}})
}
