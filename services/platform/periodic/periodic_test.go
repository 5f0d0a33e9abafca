package periodic_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"prode/platform/periodic"
)

// Rounds come one interval apart, none at the call itself, and none after ctx ends: Every
// returns then.
func TestEveryRunsRoundsUntilTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var rounds atomic.Int32
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		periodic.Every(ctx, 10*time.Millisecond, func(context.Context) {
			if rounds.Add(1) == 3 {
				cancel()
			}
		})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Every did not return after its context ended")
	}
	if n := rounds.Load(); n != 3 {
		t.Errorf("%d rounds, want 3 (the third ended the context)", n)
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Errorf("3 rounds in %v: the first came before one interval", took)
	}
}
