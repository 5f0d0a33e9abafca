package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
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

// placeReaders are signed-in players asking, in a steady loop, one on each replica, for their
// own place (GET /api/posiciones/yo) and their league's table (GET /api/grupos/{id}/posiciones),
// in turn: the session, and the league's membership, are read from PostgreSQL. What each answer
// was is judged afterwards against the outage's times (checkAgainstOutage).
type placeReaders struct {
	begin   time.Time
	running *testenv.RunningLoad

	mu      sync.Mutex
	answers []placeAnswer
}

// placeAnswer is when a read started (since begin), how long it took, its status and what was
// wrong with its shape ("" when nothing).
type placeAnswer struct {
	at, took time.Duration
	status   int
	problem  string
}

// readPlaces starts the readers: players[w] creates a league on replicas[w], then reads there.
func readPlaces(t *testing.T, begin time.Time, players []testenv.Player, replicas ...*testenv.Binary) *placeReaders {
	t.Helper()
	paths := make([][]string, len(players))
	for w, p := range players {
		paths[w] = []string{"/api/posiciones/yo", fmt.Sprintf("/api/grupos/%d/posiciones", createLeague(t, replicas[w], p))}
	}
	r := &placeReaders{begin: begin}
	turns := make([]int, len(replicas)) // each worker's own: no lock
	r.running = testenv.StartLoad(testenv.Load{Workers: len(replicas), Send: func(client *http.Client, w int) error {
		req, err := http.NewRequest(http.MethodGet, replicas[w].URL(paths[w][turns[w]%2]), nil)
		if err != nil {
			return err
		}
		turns[w]++
		req.AddCookie(players[w].Cookie)
		start := time.Now()
		res, err := client.Do(req)
		a := placeAnswer{at: start.Sub(r.begin), took: time.Since(start)}
		if err != nil {
			a.problem = "no HTTP answer: " + err.Error()
		} else {
			a.status, a.problem = testenv.JudgeOutageAnswer(res, a.took, 2*time.Second)
			if a.problem != "" {
				a.problem = req.URL.Path + ": " + a.problem
			}
		}
		r.mu.Lock()
		r.answers = append(r.answers, a)
		r.mu.Unlock()
		if a.status != http.StatusOK {
			time.Sleep(100 * time.Millisecond) // a page retrying a little later
		}
		return nil
	}})
	return r
}

// createLeague has p create a league on svc (POST /api/grupos) and returns its id.
func createLeague(t *testing.T, svc *testenv.Binary, p testenv.Player) int64 {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"nombre": "Los de " + p.Nombre})
	req, err := http.NewRequest(http.MethodPost, svc.URL("/api/grupos"), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(p.Cookie)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var g struct {
		ID int64 `json:"id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&g); err != nil || res.StatusCode != http.StatusCreated || g.ID == 0 {
		t.Fatalf("%s creates a league: %d (decode: %v)", p.Nombre, res.StatusCode, err)
	}
	return g.ID
}

// checkAgainstOutage stops the readers and checks their answers: 200s, or, from the kill to
// resumeBy (PostgreSQL's return up, plus the pool's reconnection), 503s in the API's shape
// within 2 s; some 503 while down, and a 200 after the return. It returns the counts for the log.
func (r *placeReaders) checkAgainstOutage(t *testing.T, killed, up, resumeBy time.Duration) (ok, refused int) {
	t.Helper()
	r.running.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	okAfter, problems := 0, 0
	for _, a := range r.answers {
		problem := a.problem
		switch {
		case problem != "":
		case a.status == http.StatusOK:
			ok++
			if a.at > up {
				okAfter++
			}
		case a.at+a.took < killed || a.at > resumeBy: // answered before the kill, or asked after resumeBy
			problem = fmt.Sprintf("%d outside the outage", a.status)
		default:
			refused++
		}
		if problem != "" {
			if problems++; problems <= 10 {
				t.Errorf("own place or league at %s (took %s): %s", a.at.Round(time.Millisecond), a.took.Round(time.Millisecond), problem)
			}
		}
	}
	if refused == 0 {
		t.Error("no own place or league table answered 503 while PostgreSQL was down")
	}
	if okAfter == 0 {
		t.Error("no own place or league table answered 200 after PostgreSQL's return")
	}
	return ok, refused
}
