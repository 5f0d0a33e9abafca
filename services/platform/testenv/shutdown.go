package testenv

import (
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ShutdownFigures is what SIGTERMUnderLoad measured.
type ShutdownFigures struct {
	LoadFigures
	SentAfterSIGTERM int64         // requests sent between SIGTERM and the load stopping
	NotReadyAfter    time.Duration // SIGTERM to /readyz failing
	ExitedAfter      time.Duration // SIGTERM to the process's exit
}

const (
	// warmUp is how long the load runs before SIGTERM, so that requests are in flight.
	warmUp = 500 * time.Millisecond
	// endpointsLag is how long the load goes on after /readyz fails: the time an endpoints
	// controller and an ingress take to stop sending to a pod that is no longer ready.
	endpointsLag = 300 * time.Millisecond
	// minRequests: fewer would mean the load hardly ran, and "none failed" says nothing.
	minRequests = 50
)

// SIGTERMUnderLoad keeps load on b, sends SIGTERM, and stops sending new requests only once
// /readyz fails (plus endpointsLag), as Kubernetes does with a terminating pod. It checks
// that no request failed, that readiness failed within a second, and that the process exited
// with status 0 within its grace period (drain delay + shutdown timeout + 5 s, the chart's
// terminationGracePeriodSeconds without preStop). It logs the figures and returns them.
func SIGTERMUnderLoad(t testing.TB, b *Binary, load Load) ShutdownFigures {
	t.Helper()
	running := StartLoad(load)
	time.Sleep(warmUp)
	sentBefore := running.Sent()
	sigterm := time.Now()
	b.Signal(syscall.SIGTERM)
	var f ShutdownFigures
	f.NotReadyAfter = waitNotReady(b, 5*time.Second)
	time.Sleep(endpointsLag)
	f.LoadFigures = running.Stop()
	f.SentAfterSIGTERM = f.Sent - sentBefore

	exitErr, exited := b.WaitExit(BinaryDrainDelay + BinaryShutdownTimeout + 5*time.Second)
	f.ExitedAfter = time.Since(sigterm)
	switch {
	case !exited:
		t.Errorf("still running %s after SIGTERM", f.ExitedAfter.Round(time.Millisecond))
	case exitErr != nil:
		t.Errorf("exit after SIGTERM: %v\n%s", exitErr, b.ErrorLogs())
	}
	if f.NotReadyAfter < 0 || f.NotReadyAfter > time.Second {
		t.Errorf("/readyz still answered 200 %s after SIGTERM", f.NotReadyAfter)
	}
	if f.Failed != 0 {
		t.Errorf("%d of %d requests failed; first: %s", f.Failed, f.Sent, strings.Join(f.Failures, "; "))
	}
	if f.Sent < minRequests || f.SentAfterSIGTERM == 0 {
		t.Errorf("the load hardly ran: %d requests, %d after SIGTERM", f.Sent, f.SentAfterSIGTERM)
	}
	t.Logf("%d requests (%d after SIGTERM), %d failed; /readyz failed %s after SIGTERM; exited 0 after %s",
		f.Sent, f.SentAfterSIGTERM, f.Failed, f.NotReadyAfter.Round(time.Millisecond), f.ExitedAfter.Round(time.Millisecond))
	return f
}

// waitNotReady polls /readyz every 20 ms until it answers anything but 200 (or nothing), and
// returns how long that took; -1 if it still answered 200 after timeout.
func waitNotReady(b *Binary, timeout time.Duration) time.Duration {
	start := time.Now()
	client := &http.Client{Timeout: time.Second}
	for time.Since(start) < timeout {
		res, err := client.Get(b.AdminURL("/readyz"))
		if err != nil {
			return time.Since(start)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return -1
}
