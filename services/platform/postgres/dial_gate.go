package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// dialGate keeps requests from queueing behind one another's dials while an address of
// PostgreSQL does not answer. Once a dial to an address failed, dials to it go one at a time:
// every dial to that address made while another is in flight fails at once with the last
// failure (a 503 with Retry-After), instead of each waiting out its own dialTimeout. Without it, when the
// address stops answering (a node's crash, a force-deleted PostgreSQL pod that the node's proxy
// rules still name) the pool's few slots fill with hanging dials, requests wait for a slot and
// then for a dial of their own, and the cluster test's 503s took over 5 s. The dial that goes
// alone is also the one that finds PostgreSQL back.
//
// The gate is per address (pgconn dials each address a host name resolves to in turn, and one
// that refuses must not hold back the next). Only dials are gated, not logins: a slow login
// means a busy server, not a missing one, and must not turn a busy moment into a burst of 503s.
type dialGate struct {
	dial pgconn.DialFunc
	mu   sync.Mutex
	// addresses holds each address with a dial in flight or a failed last dial.
	addresses map[string]*addressState
}

type addressState struct {
	lastErr  error // the last dial's failure; nil once one got through
	inFlight int
}

// errDialSkipped marks the dials refused without trying.
var errDialSkipped = errors.New("postgres: not dialled while another dial retries after a failure")

func newDialGate(dial pgconn.DialFunc) *dialGate {
	return &dialGate{dial: dial, addresses: map[string]*addressState{}}
}

// DialContext is the pool's pgconn.DialFunc.
func (g *dialGate) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	g.mu.Lock()
	a := g.addresses[addr]
	switch {
	case a == nil:
		a = &addressState{}
		g.addresses[addr] = a
	case a.lastErr != nil && a.inFlight > 0:
		last := a.lastErr
		g.mu.Unlock()
		return nil, fmt.Errorf("%w: %w", errDialSkipped, last)
	}
	a.inFlight++
	g.mu.Unlock()

	conn, err := g.dial(ctx, network, addr)

	g.mu.Lock()
	defer g.mu.Unlock()
	a.inFlight--
	switch {
	case err == nil:
		a.lastErr = nil
	case !errors.Is(ctx.Err(), context.Canceled):
		// A dial its caller gave up on says nothing of the address; one that ran out of time
		// (dialTimeout, or the URL's connect_timeout) does.
		a.lastErr = err
	}
	if a.inFlight == 0 && a.lastErr == nil {
		delete(g.addresses, addr)
	}
	return conn, err
}
