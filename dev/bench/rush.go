package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// rushFigures is the match-day rush (issue 6): players saving predictions in the hour before a
// kick-off while others refresh the standings and a result is being scored.
type rushFigures struct {
	Saves, Standings wrkReport
	ResultAfter      time.Duration // when the result was entered, from the start
	Players          int
}

func errorRate(r wrkReport) float64 {
	return ratio(float64(r.StatusErrors+r.SocketErrors), float64(r.Requests))
}

// Met says whether both loads stayed under the thresholds: fewer than 0.1 % errors, p95 under
// 200 ms.
func (f rushFigures) Met() bool {
	for _, r := range []wrkReport{f.Saves, f.Standings} {
		if errorRate(r) >= 0.001 || r.P95US >= 200_000 {
			return false
		}
	}
	return true
}

// rush runs both loads at once for d, half the connections each, and a quarter of the way in
// enters a new result for the already finished match, so that scoring rescores its
// predictions under the load.
func (b *bench) rush(ctx context.Context, players []player, writable []int64, admin player, finished int64, d time.Duration) (rushFigures, error) {
	f := rushFigures{Players: len(players), ResultAfter: d / 4}
	half := max(1, b.cfg.Connections/2)
	saves := wrkRun{URL: b.cfg.PredictionsBase, Connections: half, Duration: d, RequestLua: predictionLua(players, writable)}
	standings := wrkRun{URL: b.cfg.ScoringBase + "/api/posiciones", Connections: half, Duration: d}
	var wg sync.WaitGroup
	var saveErr, standingsErr, resultErr error
	wg.Go(func() { f.Saves, saveErr = saves.run(ctx, b.cfg.WorkDir) })
	wg.Go(func() { f.Standings, standingsErr = standings.run(ctx, b.cfg.WorkDir) })
	wg.Go(func() {
		time.Sleep(f.ResultAfter)
		resultErr = put(fmt.Sprintf("%s/api/partidos/%d/resultado", b.cfg.FixturesBase, finished), admin.Cookie,
			`{"goles_local":2,"goles_visitante":2}`)
	})
	wg.Wait()
	for _, err := range []error{saveErr, standingsErr, resultErr} {
		if err != nil {
			return f, err
		}
	}
	return f, nil
}
