package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// OutageLoad is the traffic PostgresOutage keeps on a service: Workers goroutines, each
// sending Request(worker, i) in turn. i moves on only when the answer is a 2xx: a refused
// request is sent again, as a client that retries would.
type OutageLoad struct {
	Workers int
	Request func(worker, i int) *http.Request
	// Acked hears of each 2xx, in the worker's goroutine: the write the caller checks for in
	// the database afterwards.
	Acked func(worker, i int)
}

// OutageLimits are how long a 503 may take while PostgreSQL is down, and how long after it
// accepts connections again the first 2xx may take.
type OutageLimits struct{ Answer, Resume time.Duration }

// OutageFigures is what PostgresOutage measured.
type OutageFigures struct {
	Requests                    int
	AckedBefore, AckedDuring    int // 2xx before the kill, and from the kill to the return
	AckedAfter                  int
	Refused                     int           // 503s while PostgreSQL was down
	SlowestRefusal              time.Duration // the slowest of them
	FirstAckAfter               time.Duration // PostgreSQL's return to the first 2xx; -1: none
	Problems                    int           // answers no phase allows
	Killed, Restarted, Accepted time.Duration // since the load began
}

// outageAnswer is one request's answer: when it was sent, how long it took, its status, and
// what was wrong with it ("" when its phase allows it).
type outageAnswer struct {
	at, took time.Duration
	status   int
	problem  string
}

// PostgresOutage keeps load on svc, kills cluster (pg_ctl stop -m immediate, like a crash or a
// failover) after 3 s for PGDOWN_SECONDS (5 in `make test`, 30 in `make soak`), starts it
// again, goes on for 12 s and checks:
//   - every answer is a 2xx, or, while PostgreSQL is down, a 503 JSON servicio_no_disponible
//     with a request id and Retry-After, within limits.Answer;
//   - at least one request was refused so (the load did reach PostgreSQL);
//   - a 2xx comes within limits.Resume of PostgreSQL accepting connections again;
//   - the process never exits.
//
// What the acknowledged writes left in the database is the caller's to check, with Acked.
func PostgresOutage(t testing.TB, cluster *Cluster, svc *Binary, load OutageLoad, limits OutageLimits) OutageFigures {
	t.Helper()
	down := Seconds(t, "PGDOWN_SECONDS", 5*time.Second)
	var (
		mu      sync.Mutex
		answers []outageAnswer
		stop    atomic.Bool
		begin   = time.Now()
		wg      sync.WaitGroup
	)
	client := &http.Client{Timeout: 10 * time.Second}
	for w := range load.Workers {
		wg.Go(func() {
			for i := 0; !stop.Load(); {
				start := time.Now()
				res, err := client.Do(load.Request(w, i))
				a := outageAnswer{at: start.Sub(begin), took: time.Since(start)}
				if err != nil {
					a.problem = "no HTTP answer: " + err.Error()
				} else {
					a.status, a.problem = JudgeOutageAnswer(res, a.took, limits.Answer)
					if a.status/100 == 2 {
						load.Acked(w, i)
						i++
					}
				}
				mu.Lock()
				answers = append(answers, a)
				mu.Unlock()
				if a.status/100 != 2 {
					time.Sleep(100 * time.Millisecond) // a client backing off a little
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}

	var f OutageFigures
	time.Sleep(3 * time.Second)
	f.Killed = time.Since(begin)
	cluster.Kill()
	cluster.WaitDown(5 * time.Second)
	time.Sleep(down)
	f.Restarted = time.Since(begin)
	cluster.Start()
	f.Accepted = time.Since(begin)
	time.Sleep(12 * time.Second)
	stop.Store(true)
	wg.Wait()

	select {
	case <-svc.Exited():
		err, _ := svc.WaitExit(time.Second)
		t.Fatalf("the service exited during the outage: %v\n%s", err, svc.Logs())
	default:
	}
	f.count(t, answers)
	if f.Problems > 0 {
		for _, line := range strings.Split(svc.ErrorLogs(), "\n") {
			if line != "" && !strings.Contains(line, "servicio_no_disponible") {
				t.Logf("service log: %s", line)
			}
		}
	}
	if f.Refused == 0 {
		t.Error("no 503 while PostgreSQL was down")
	}
	if f.FirstAckAfter < 0 || f.FirstAckAfter > limits.Resume {
		t.Errorf("no 2xx within %s of PostgreSQL's return (first %s after)", limits.Resume, f.FirstAckAfter)
	}
	t.Logf("PostgreSQL killed at %s for %s (restart at %s, accepting at %s)", f.Killed.Round(time.Millisecond), down,
		f.Restarted.Round(time.Millisecond), f.Accepted.Round(time.Millisecond))
	t.Logf("%d requests; 2xx before %d, during %d, after %d; 503 while down %d (slowest %s); first 2xx %s after the return; unexpected answers %d",
		f.Requests, f.AckedBefore, f.AckedDuring, f.AckedAfter, f.Refused, f.SlowestRefusal.Round(time.Millisecond),
		f.FirstAckAfter.Round(time.Millisecond), f.Problems)
	return f
}

// JudgeOutageAnswer reads res (and closes its body) and says what is wrong with it, if anything:
// a 2xx is right, and a 503 in the API's shape within limit. Whether a 503 came while
// PostgreSQL was down is the caller's to judge (PostgresOutage: by the phases).
func JudgeOutageAnswer(res *http.Response, took, limit time.Duration) (status int, problem string) {
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var e struct {
		Error     string `json:"error"`
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal(raw, &e)
	switch {
	case res.StatusCode/100 == 2:
		return res.StatusCode, ""
	case res.StatusCode != http.StatusServiceUnavailable:
		return res.StatusCode, fmt.Sprintf("%d %s", res.StatusCode, raw)
	case e.Error != "servicio_no_disponible" || e.RequestID == "" || res.Header.Get("Retry-After") == "" ||
		res.Header.Get("Content-Type") != "application/json; charset=utf-8":
		return res.StatusCode, fmt.Sprintf("503 without the JSON body or Retry-After: %v %s", res.Header, raw)
	case took > limit:
		return res.StatusCode, fmt.Sprintf("503 after %s", took)
	}
	return res.StatusCode, ""
}

// count sorts the answers into the outage's phases: before the kill, until PostgreSQL accepts
// connections again (the only phase a 503 is allowed in), and after.
func (f *OutageFigures) count(t testing.TB, answers []outageAnswer) {
	slices.SortFunc(answers, func(a, b outageAnswer) int { return int(a.at - b.at) })
	f.Requests, f.FirstAckAfter = len(answers), -1
	for _, a := range answers {
		ok := a.status/100 == 2
		switch {
		case a.at < f.Killed:
			if ok {
				f.AckedBefore++
			}
		case a.at+a.took < f.Accepted:
			if ok {
				f.AckedDuring++
			}
			if a.status == http.StatusServiceUnavailable {
				f.Refused++
				f.SlowestRefusal = max(f.SlowestRefusal, a.took)
			}
		default:
			if ok {
				f.AckedAfter++
				if f.FirstAckAfter < 0 {
					f.FirstAckAfter = a.at + a.took - f.Accepted
				}
			}
		}
		if a.problem != "" {
			f.Problems++
			if f.Problems <= 10 {
				t.Errorf("at %s (took %s): %s", a.at.Round(time.Millisecond), a.took.Round(time.Millisecond), a.problem)
			}
		}
	}
}
