package postgres

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// While PostgreSQL's address does not answer, a steady stream of requests gets its 503s within
// two dials' time, however long the outage lasts, instead of queueing for the pool's slots
// behind one another's dials (over 5 s in the cluster test, where a force-deleted pod's address
// stopped answering).
func TestRequestsDoNotQueueBehindDialsThatHang(t *testing.T) {
	pool, err := Connect(context.Background(), "postgres://prode_players@"+addressThatHangs(t)+"/prode?sslmode=disable", 4)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()

	// 20 requests a second for 3 s: ten times what four slots of 2 s dials can fail.
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		slowest time.Duration
		errs    []error
	)
	for range 60 {
		wg.Go(func() {
			start := time.Now()
			err := pool.Ping(context.Background())
			mu.Lock()
			defer mu.Unlock()
			slowest = max(slowest, time.Since(start))
			errs = append(errs, err)
		})
		time.Sleep(50 * time.Millisecond)
	}
	wg.Wait()
	skipped := 0
	for _, err := range errs {
		if err == nil || !IsUnavailable(err) {
			t.Fatalf("a ping while the address hangs: %v, want an outage (503)", err)
		}
		if errors.Is(err, errDialSkipped) {
			skipped++
		}
	}
	// Each request waits at most for a slot (a dial in flight) and then for its own dial.
	if slowest > 2*dialTimeout+time.Second {
		t.Errorf("the slowest 503 took %s, want at most two dials (%s) and a margin", slowest, 2*dialTimeout)
	}
	t.Logf("60 pings over 3 s to an address that does not answer: slowest 503 after %s, %d refused without a dial",
		slowest.Round(time.Millisecond), skipped)
}

// A dial its caller gave up on (a client that hung up) says nothing of the address: a dial
// made beside one in flight after it still goes. A real failure does close the gate: one beside
// the retry is then skipped.
func TestACancelledDialLeavesTheGateOpen(t *testing.T) {
	release := make(chan struct{})
	var dials atomic.Int32
	gate := newDialGate(func(ctx context.Context, _, _ string) (net.Conn, error) {
		dials.Add(1)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-release:
			return nil, errors.New("refused")
		}
	})
	// dialBeside starts a dial and waits until it is in flight (or already answered).
	dialBeside := func() chan error {
		done, before := make(chan error, 1), dials.Load()
		go func() { _, err := gate.DialContext(context.Background(), "tcp", "db:5432"); done <- err }()
		for dials.Load() == before && len(done) == 0 {
			time.Sleep(time.Millisecond)
		}
		return done
	}
	first := dialBeside()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := gate.DialContext(ctx, "tcp", "db:5432"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled dial: %v", err)
	}
	second := dialBeside()
	close(release)
	if err := <-first; err == nil || errors.Is(err, errDialSkipped) {
		t.Fatalf("the first dial: %v, want it tried (and refused)", err)
	}
	if err := <-second; errors.Is(err, errDialSkipped) {
		t.Fatalf("a dial beside one in flight, after a cancelled one, was skipped: %v", err)
	}

	// Now the last dial failed: the next goes alone, and one beside it is skipped.
	release = make(chan struct{})
	retry := dialBeside()
	if _, err := gate.DialContext(context.Background(), "tcp", "db:5432"); !errors.Is(err, errDialSkipped) {
		t.Errorf("a dial beside the one retrying after a failure: %v, want it skipped", err)
	}
	close(release)
	if err := <-retry; err == nil || errors.Is(err, errDialSkipped) {
		t.Errorf("the dial retrying after a failure: %v, want it tried (and refused)", err)
	}
}

// A host name may resolve to several addresses, which pgconn dials in turn: while a dial
// retries one that failed, dials to the others still go.
func TestAFailingAddressHoldsBackNoOther(t *testing.T) {
	release := make(chan struct{})
	var ipv6Dials atomic.Int32
	gate := newDialGate(func(_ context.Context, _, addr string) (net.Conn, error) {
		if addr == "[::1]:5432" && ipv6Dials.Add(1) > 1 {
			<-release // the retry hangs
		}
		return nil, errors.New("refused")
	})
	if _, err := gate.DialContext(context.Background(), "tcp", "[::1]:5432"); errors.Is(err, errDialSkipped) {
		t.Fatalf("the first dial to an address: %v, want it tried", err)
	}
	retry := make(chan error)
	go func() { _, err := gate.DialContext(context.Background(), "tcp", "[::1]:5432"); retry <- err }()
	for ipv6Dials.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	if _, err := gate.DialContext(context.Background(), "tcp", "[::1]:5432"); !errors.Is(err, errDialSkipped) {
		t.Errorf("a dial to the failing address while its retry is in flight: %v, want it skipped", err)
	}
	if _, err := gate.DialContext(context.Background(), "tcp", "127.0.0.1:5432"); errors.Is(err, errDialSkipped) {
		t.Errorf("a dial to another address while the failing one's retry is in flight: %v, want it tried", err)
	}
	close(release)
	if err := <-retry; errors.Is(err, errDialSkipped) {
		t.Errorf("the retry: %v, want it tried", err)
	}
}

// addressThatHangs is a listening address whose accept queue is full, so that the kernel drops
// every new connection's SYN and a dial to it hangs until its timeout: what a dial to a
// crashed host's address does.
func addressThatHangs(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	// A backlog of 0 holds one connection, never accepted.
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(sa.(*syscall.SockaddrInet4).Port)
	filler, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { filler.Close() })
	if conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
		conn.Close()
		t.Fatal("the kernel accepted a connection beyond a full accept queue: no address that hangs")
	}
	return addr
}
