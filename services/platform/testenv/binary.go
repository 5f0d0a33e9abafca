package testenv

import (
	"encoding/base64"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The drain settings every Binary starts with: short, so that a shutdown test takes seconds,
// but the drain delay long enough for the load to see /readyz fail before the API closes.
const (
	BinaryDrainDelay      = 2 * time.Second
	BinaryShutdownTimeout = 10 * time.Second
)

// Build compiles the main package in dir (a cmd test passes ".") into the test's temporary
// directory and returns the executable's path. The real binary, not a handler in the test
// process, so that signals, exit codes and the process's own wiring are what is tested.
func Build(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(abs))
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = abs
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", dir, err, out)
	}
	return bin
}

// Binary is a service process a test started, listening on addresses of its own.
type Binary struct {
	API, Admin string // host:port of the API and admin listeners
	t          testing.TB
	cmd        *exec.Cmd
	logs       *LockedBuffer
	exited     chan struct{}
	exitErr    error // set before exited is closed
}

// Start runs bin with free API and admin addresses, the test session key, the drain settings
// above and env (KEY=value; a key given here overrides those), and waits until /readyz
// answers 200. The process is killed when the test ends if it still runs.
func Start(t testing.TB, bin string, env ...string) *Binary {
	t.Helper()
	b := launch(t, bin, env)
	select {
	case <-b.exited:
		t.Fatalf("%s exited at start: %v\n%s", filepath.Base(bin), b.exitErr, b.Logs())
	default:
	}
	WaitReady(t, b.AdminURL("/readyz"))
	return b
}

// Refused runs bin as Start does and requires that it refuse its configuration: exit with
// status 1 within a few seconds, without serving. It returns what the process wrote.
func Refused(t testing.TB, bin string, env ...string) string {
	t.Helper()
	b := launch(t, bin, env)
	err, exited := b.WaitExit(10 * time.Second)
	var exitErr *exec.ExitError
	switch {
	case !exited:
		t.Fatalf("%s still runs after 10 s, want it to refuse its configuration\n%s", filepath.Base(bin), b.Logs())
	case !errors.As(err, &exitErr) || exitErr.ExitCode() != 1:
		t.Fatalf("%s exited with %v, want exit status 1\n%s", filepath.Base(bin), err, b.Logs())
	}
	return b.Logs()
}

// launch starts bin with Start's environment and env after it; exec uses the last value of a
// repeated key, so env overrides the defaults. The process is killed when the test ends if it
// still runs.
func launch(t testing.TB, bin string, env []string) *Binary {
	t.Helper()
	b := &Binary{API: FreeAddr(t), Admin: FreeAddr(t), t: t, logs: &LockedBuffer{}, exited: make(chan struct{})}
	b.cmd = exec.Command(bin)
	b.cmd.Env = append(os.Environ(),
		"HTTP_ADDR="+b.API, "ADMIN_ADDR="+b.Admin,
		"SESSION_KEY="+base64.StdEncoding.EncodeToString(SessionKey),
		"DRAIN_DELAY="+BinaryDrainDelay.String(), "SHUTDOWN_TIMEOUT="+BinaryShutdownTimeout.String())
	b.cmd.Env = append(b.cmd.Env, env...)
	b.cmd.Stdout, b.cmd.Stderr = b.logs, b.logs
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		b.exitErr = b.cmd.Wait()
		close(b.exited)
	}()
	t.Cleanup(func() {
		_ = b.cmd.Process.Kill()
		<-b.exited
	})
	return b
}

// URL is the API's URL of path.
func (b *Binary) URL(path string) string { return "http://" + b.API + path }

// AdminURL is the admin port's URL of path (/readyz, /metrics).
func (b *Binary) AdminURL(path string) string { return "http://" + b.Admin + path }

// Signal sends sig to the process.
func (b *Binary) Signal(sig syscall.Signal) {
	b.t.Helper()
	if err := b.cmd.Process.Signal(sig); err != nil {
		b.t.Fatalf("signal %v: %v", sig, err)
	}
}

// Kill sends SIGKILL and waits for the process to be gone: a crash, an OOM kill, a node lost.
func (b *Binary) Kill() {
	b.t.Helper()
	select {
	case <-b.exited: // already gone
		return
	default:
	}
	b.Signal(syscall.SIGKILL)
	<-b.exited
}

// Exited is closed once the process has exited.
func (b *Binary) Exited() <-chan struct{} { return b.exited }

// WaitExit waits up to timeout for the process to exit and returns its exit error (nil: exit
// status 0); ok is false when it still runs.
func (b *Binary) WaitExit(timeout time.Duration) (err error, ok bool) {
	select {
	case <-b.exited:
		return b.exitErr, true
	case <-time.After(timeout):
		return nil, false
	}
}

// Logs is everything the process wrote so far (JSON lines; services never log secrets).
func (b *Binary) Logs() string { return b.logs.String() }

// ErrorLogs is the process's log lines at level ERROR, to show when a test fails.
func (b *Binary) ErrorLogs() string {
	var out []string
	for _, line := range strings.Split(b.Logs(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
