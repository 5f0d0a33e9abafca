package reveal

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// What is kept, for how long, and when it is read again.
func TestKeptDistributions(t *testing.T) {
	clock := time.Date(2026, 6, 11, 20, 0, 0, 0, time.UTC)
	k := newKept(10*time.Minute, 2*time.Second)
	k.now = func() time.Time { return clock }
	reads := 0
	read := func() (Distribucion, error) {
		reads++
		return Distribucion{Total: reads}, nil
	}
	cierre := clock.Add(-30 * time.Second)
	get := func(c time.Time, settled bool) int {
		t.Helper()
		d, err := k.get(7, c, settled, read)
		if err != nil {
			t.Fatal(err)
		}
		return d.Total
	}

	// While locking: kept for lockingFor.
	if got := get(cierre, false); got != 1 {
		t.Fatalf("first read: %d", got)
	}
	clock = clock.Add(time.Second)
	if got := get(cierre, false); got != 1 {
		t.Fatalf("within lockingFor: read again (%d)", got)
	}
	clock = clock.Add(2 * time.Second)
	if got := get(cierre, false); got != 2 {
		t.Fatalf("past lockingFor: not read again (%d)", got)
	}
	// Settled: a distribution read while locking never stands for the settled one.
	if got := get(cierre, true); got != 3 {
		t.Fatalf("first settled read: %d", got)
	}
	clock = clock.Add(9 * time.Minute)
	if got := get(cierre, true); got != 3 {
		t.Fatalf("within settledFor: read again (%d)", got)
	}
	// Another cut-off (a reschedule) is another distribution.
	if got := get(cierre.Add(time.Hour), true); got != 4 {
		t.Fatalf("after a reschedule: %d", got)
	}
	clock = clock.Add(11 * time.Minute)
	if got := get(cierre.Add(time.Hour), true); got != 5 {
		t.Fatalf("past settledFor: not read again (%d)", got)
	}
}

// Requests that find nothing kept share one read: a crowd opening the page at the lock costs one
// pass over the match's predictions.
func TestKeptDistributionIsReadOncePerCrowd(t *testing.T) {
	k := newKept(time.Minute, time.Second)
	var reads atomic.Int32
	release := make(chan struct{})
	read := func() (Distribucion, error) {
		reads.Add(1)
		<-release
		return Distribucion{Total: 42}, nil
	}
	cierre := time.Now()
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if d, err := k.get(7, cierre, true, read); err != nil || d.Total != 42 {
				t.Errorf("got %+v, %v", d, err)
			}
		})
	}
	time.Sleep(50 * time.Millisecond) // let them all arrive
	close(release)
	wg.Wait()
	if n := reads.Load(); n != 1 {
		t.Fatalf("%d reads for 50 requests, want 1", n)
	}
}
