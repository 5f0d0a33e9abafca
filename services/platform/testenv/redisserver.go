package testenv

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisServer is a throwaway redis-server of one test's own, which the test may kill and
// start again on the same port (fault scenarios; the shared test Redis must stay up for the
// other tests). Like dev/lib.sh's, it keeps nothing on disk: a restarted server is empty, as
// a cache that lost its data.
type RedisServer struct {
	Port int
	t    testing.TB
	cmd  *exec.Cmd
	done chan struct{}
}

// NewRedisServer starts redis-server on a free port (FreePort); it is killed when the test ends.
func NewRedisServer(t testing.TB) *RedisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatal("redis-server is not installed (apt-get install redis-server; make test installs it)")
	}
	r := &RedisServer{Port: FreePort(t), t: t} // Kill and Start use it again: below the ephemeral range
	r.Start()
	t.Cleanup(r.Kill)
	return r
}

// URL is the server's redis:// URL.
func (r *RedisServer) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.Port) }

// Start starts the server (again) and waits until it answers PING.
func (r *RedisServer) Start() {
	r.t.Helper()
	r.cmd = exec.Command("redis-server", "--port", strconv.Itoa(r.Port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("redis-server: %v", err)
	}
	done := make(chan struct{})
	r.done = done
	go func(cmd *exec.Cmd) { _ = cmd.Wait(); close(done) }(r.cmd)

	client := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.Port), DialTimeout: 200 * time.Millisecond})
	defer client.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := client.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		select {
		case <-done:
			r.t.Fatalf("redis-server on port %d exited at start", r.Port)
		case <-time.After(50 * time.Millisecond):
		}
	}
	r.t.Fatalf("redis-server on port %d did not answer PING", r.Port)
}

// RequirePassword makes the server want a password (requirepass), as the chart's Redis does,
// and returns it with a client that holds it, for the test's own reads; the caller closes it.
// The password holds what a redis:// URL's user part would need escaped ("@", ":", "/", "#",
// "?", "%"), a space and a non-ASCII letter, as an operator's own may: the services get it
// apart from the URL (REDIS_PASSWORD). A restarted server wants none again.
func (r *RedisServer) RequirePassword() (password string, client *redis.Client) {
	r.t.Helper()
	password = "p@ss:w/rd #1 ü?%"
	client = redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.Port)})
	if err := client.ConfigSet(context.Background(), "requirepass", password).Err(); err != nil {
		r.t.Fatalf("redis-server on port %d: CONFIG SET requirepass: %v", r.Port, err)
	}
	return password, client
}

// Kill stops the server at once (SIGKILL: a crash, a node lost) and waits until it is gone.
func (r *RedisServer) Kill() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	<-r.done
	r.cmd = nil
}
