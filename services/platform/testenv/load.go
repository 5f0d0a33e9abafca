package testenv

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Load is steady traffic on a service: Workers goroutines, each calling Send in a loop until
// the load is stopped. Send makes one request and returns an error when the answer is not
// what the scenario allows (no answer, a wrong status); worker is the goroutine's index, so
// Send may keep per-worker state in a slice without locks. Send must never put a cookie or a
// token in its error: errors end up in the test's output.
type Load struct {
	Workers int
	Send    func(client *http.Client, worker int) error
}

// LoadFigures count what a load sent.
type LoadFigures struct {
	Sent, Failed int64
	Failures     []string // the first few errors, for the test's message
}

// maxFailuresKept bounds LoadFigures.Failures: the first errors say what went wrong.
const maxFailuresKept = 10

// RunningLoad is a Load under way.
type RunningLoad struct {
	stop         atomic.Bool
	wg           sync.WaitGroup
	sent, failed atomic.Int64
	mu           sync.Mutex
	failures     []string
}

// StartLoad starts the workers. They share a client that keeps a connection alive per worker,
// as an ingress does, with a 5 s timeout: a request a draining server drops shows up as an
// error, not as a hang.
func StartLoad(load Load) *RunningLoad {
	r := &RunningLoad{}
	client := &http.Client{Timeout: 5 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: load.Workers, IdleConnTimeout: 30 * time.Second}}
	for w := range load.Workers {
		r.wg.Go(func() {
			for !r.stop.Load() {
				r.sent.Add(1)
				if err := load.Send(client, w); err != nil {
					r.failed.Add(1)
					r.mu.Lock()
					if len(r.failures) < maxFailuresKept {
						r.failures = append(r.failures, err.Error())
					}
					r.mu.Unlock()
				}
			}
		})
	}
	return r
}

// Sent is how many requests were sent so far.
func (r *RunningLoad) Sent() int64 { return r.sent.Load() }

// Stop stops sending new requests, waits for those in flight and returns the figures.
func (r *RunningLoad) Stop() LoadFigures {
	r.stop.Store(true)
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return LoadFigures{Sent: r.sent.Load(), Failed: r.failed.Load(), Failures: append([]string(nil), r.failures...)}
}
