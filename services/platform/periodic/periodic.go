// Package periodic runs a service's background rounds: a piece of work at a fixed interval for
// as long as a context lives (the standings watch, the live streams' heartbeats).
package periodic

import (
	"context"
	"time"
)

// Every runs round every interval until ctx ends, the first time one interval after the call.
// A round that takes longer than interval delays the next one; rounds never overlap.
func Every(ctx context.Context, interval time.Duration, round func(context.Context)) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			round(ctx)
		}
	}
}
