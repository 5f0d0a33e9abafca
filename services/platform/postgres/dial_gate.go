package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// dialGate keeps requests from queueing behind one another's dials while PostgreSQL's address
// does not answer. Once a dial failed, the next goes alone: every other dial made while it is in
// flight fails at once with the last failure (a 503 with Retry-After), instead of each waiting
// out its own dialTimeout. Without it, when the address stops answering (a node's crash, a
// force-deleted PostgreSQL pod that the node's proxy rules still name) the pool's few slots
// fill with hanging dials, requests wait for a slot and then for a dial of their own, and the
// cluster test's 503s took over 5 s. The dial that goes alone is also the one that finds
// PostgreSQL back.
//
// Only dials are gated, not logins: a slow login means a busy server, not a missing one, and
// must not turn a busy moment into a burst of 503s.
type dialGate struct {
	dial     pgconn.DialFunc
	mu       sync.Mutex
	lastErr  error // the last dial's failure; nil once one got through
	inFlight int
}

// errDialSkipped marks the dials refused without trying.
var errDialSkipped = errors.New("postgres: not dialled while another dial retries after a failure")

// DialContext is the pool's pgconn.DialFunc.
func (g *dialGate) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	g.mu.Lock()
	if last := g.lastErr; last != nil && g.inFlight > 0 {
		g.mu.Unlock()
		return nil, fmt.Errorf("%w: %w", errDialSkipped, last)
	}
	g.inFlight++
	g.mu.Unlock()

	conn, err := g.dial(ctx, network, addr)

	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight--
	switch {
	case err == nil:
		g.lastErr = nil
	case !errors.Is(ctx.Err(), context.Canceled):
		// A dial its caller gave up on says nothing of the address; one that ran out of time
		// (dialTimeout, or the URL's connect_timeout) does.
		g.lastErr = err
	}
	return conn, err
}
