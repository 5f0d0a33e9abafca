package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The match-day rush (issue 6) is an open load: requests arrive at a fixed rate whether or not
// the earlier ones have been answered, as players' clicks do. wrk, which the throughput
// benchmarks use, is closed: each connection waits for its answer, so at full speed its p95 is
// the queue it builds itself and says nothing about a player's wait. vegeta paces requests and
// times each from when it was due.
const (
	// Every one of 10,000 players saving a prediction twice within the same minute before the
	// cut-off: far above an hour's real traffic, about a tenth of what one replica can save.
	defaultRushSaveRate = 300
	// The same 10,000 players refreshing the standings every 10 seconds once the result is in.
	defaultRushReadRate = 1000
)

// rushFigures is what the rush measured.
type rushFigures struct {
	Saves, Standings   vegeta.Metrics
	SaveRate, ReadRate int           // offered, per second
	ResultAfter        time.Duration // when the result was entered, from the start
	Players            int
	// Every save is a different (player, match): Acknowledged saves answered 2xx, Stored the
	// predictions whose actualizada moved during the rush. Fewer stored than acknowledged is
	// a lost write; more is a save that committed but whose answer did not arrive.
	Acknowledged, Stored int64
	// CPU is where the two cores went during the rush; Sources, where scoring's answers of the
	// standings came from (prode_standings_cache_requests_total, by result, during the rush).
	CPU     cpuProfile
	Sources map[string]float64
	// Live is what the live standings did meanwhile: open streams and sign-ups (rush_live.go).
	Live rushLive
}

// Lost is how many acknowledged saves are not in the database.
func (f rushFigures) Lost() int64 { return max(0, f.Acknowledged-f.Stored) }

// failed counts the answers that were not 2xx or 3xx, and the requests that got none (code 0),
// as vegeta's Success does.
func failed(m vegeta.Metrics) uint64 {
	var n uint64
	for code, count := range m.StatusCodes {
		if code < "200" || code >= "400" {
			n += uint64(count)
		}
	}
	return n
}

func errorRate(m vegeta.Metrics) float64 { return ratio(float64(failed(m)), float64(m.Requests)) }

// Met says whether both loads stayed under the thresholds (fewer than 0.1 % errors, p95 under
// 200 ms), no acknowledged save was lost, every open stream heard the result and every
// newcomer was on the table within 2 s.
func (f rushFigures) Met() bool {
	if f.Lost() > 0 || !f.Live.Met() {
		return false
	}
	for _, m := range []vegeta.Metrics{f.Saves, f.Standings} {
		if m.Requests == 0 || errorRate(m) >= 0.001 || m.Latencies.P95 >= 200*time.Millisecond {
			return false
		}
	}
	return true
}

// rush runs both loads at once for d and, a quarter of the way in, enters a new result for the
// finished match, so that scoring rescores its predictions under the load; event streams stay
// open throughout and a player signs up every 2 s.
func (b *bench) rush(ctx context.Context, players []player, writable []int64, admin player, finished int64, d time.Duration) (rushFigures, error) {
	f := rushFigures{Players: len(players), ResultAfter: d / 4, SaveRate: b.cfg.RushSaveRate, ReadRate: b.cfg.RushReadRate}
	standings := vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: b.cfg.ScoringBase + "/api/posiciones"})
	if pairs := len(players) * len(writable); f.SaveRate*int(d.Seconds()+1) > pairs {
		return f, fmt.Errorf("%d saves a second for %s would repeat (player, match) pairs: only %d", f.SaveRate, d, pairs)
	}
	var start time.Time
	if err := b.db.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&start); err != nil {
		return f, err
	}
	before, err := standingsSources(b.cfg.ScoringAdmin)
	if err != nil {
		return f, err
	}
	streams, err := b.listen(b.cfg.RushStreams)
	if err != nil {
		return f, err
	}
	defer streams.close()
	f.Live.Streams = len(streams.conns)
	var resultErr, signUpErr error
	_ = f.CPU.measure(func(func(string, float64)) error {
		var wg sync.WaitGroup
		wg.Go(func() {
			f.Saves = attack(ctx, "saves", saveTargeter(b.cfg.PredictionsBase, players, writable), f.SaveRate, d)
		})
		wg.Go(func() { f.Standings = attack(ctx, "standings", standings, f.ReadRate, d) })
		wg.Go(func() {
			time.Sleep(f.ResultAfter)
			streams.resultAt.Store(time.Now().UnixNano())
			resultErr = put(fmt.Sprintf("%s/api/partidos/%d/resultado", b.cfg.FixturesBase, finished), admin.Cookie,
				`{"goles_local":2,"goles_visitante":2}`)
		})
		wg.Go(func() { f.Live.SignUps, f.Live.Missing, signUpErr = b.signUps(ctx, 2*time.Second, d) })
		wg.Wait()
		return nil
	})
	if err := errors.Join(resultErr, signUpErr); err != nil {
		return f, err
	}
	// The result's event follows its scoring, which may outlast the loads on a busy machine.
	for deadline := time.Now().Add(30 * time.Second); len(streams.heard()) < f.Live.Streams && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	f.Live.ToEvent = streams.heard()
	after, err := standingsSources(b.cfg.ScoringAdmin)
	if err != nil {
		return f, err
	}
	f.Sources = map[string]float64{}
	for source, n := range after {
		f.Sources[source] = n - before[source]
	}
	for code, n := range f.Saves.StatusCodes {
		if code >= "200" && code < "300" {
			f.Acknowledged += int64(n)
		}
	}
	err = b.db.QueryRow(ctx, `SELECT count(*) FROM predictions.apuestas WHERE actualizada >= $1 AND partido_id = ANY($2)`,
		start, writable).Scan(&f.Stored)
	return f, err
}

// attack sends perSecond requests a second for d (or until ctx ends) and sums up the answers.
func attack(ctx context.Context, name string, targets vegeta.Targeter, perSecond int, d time.Duration) vegeta.Metrics {
	attacker := vegeta.NewAttacker(vegeta.Timeout(10 * time.Second))
	var m vegeta.Metrics
	results := attacker.Attack(targets, vegeta.Rate{Freq: perSecond, Per: time.Second}, d, name)
	for {
		select {
		case r, ok := <-results:
			if !ok {
				m.Close()
				return m
			}
			m.Add(r)
		case <-ctx.Done():
			attacker.Stop()
		}
	}
}

// saveTargeter is the POST benchmark's request, a random score saved by a player with a session
// for an open match, each time for a (player, match) pair not saved before in this rush, so
// that the database can be checked for every acknowledged save: the nth goes through the
// players first, then through the matches.
func saveTargeter(base string, players []player, partidos []int64) vegeta.Targeter {
	var sent atomic.Int64
	return func(t *vegeta.Target) error {
		n := int(sent.Add(1) - 1)
		p := players[n%len(players)]
		t.Method = http.MethodPost
		t.URL = base + "/api/jugadores/" + p.Email + "/apuestas"
		t.Body = fmt.Appendf(nil, `{"partido":%d,"goles_local":%d,"goles_visitante":%d}`,
			partidos[(n/len(players))%len(partidos)], rand.IntN(6), rand.IntN(6))
		t.Header = http.Header{"Cookie": {p.Cookie}, "Content-Type": {"application/json"}}
		return nil
	}
}

// rushOnly is `make soak`'s rush scenario: the rush alone on the loaded stack, its report
// written, and an error when a threshold was missed.
func (b *bench) rushOnly(ctx context.Context, r report, players []player, writable []int64, admin player, finished int64) error {
	r.ScoredMatch = finished
	if err := b.db.QueryRow(ctx, `SELECT count(*) FROM predictions.apuestas WHERE partido_id = $1`, finished).Scan(&r.ScoredPredictions); err != nil {
		return err
	}
	log.Printf("match-day rush for %s: %d players saving, the standings read, match %d's result entered meanwhile", b.cfg.RushTime, len(players), finished)
	var err error
	if r.Rush, err = b.rush(ctx, players, writable, admin, finished, b.cfg.RushTime); err != nil {
		return err
	}
	if err := writeReport(b.cfg.Out, r.RushMarkdown()); err != nil {
		return err
	}
	log.Printf("wrote %s", b.cfg.Out)
	if !r.Rush.Met() {
		return fmt.Errorf("the rush missed a threshold (errors < 0.1 %%, p95 < 200 ms): see %s", b.cfg.Out)
	}
	return nil
}
