package testenv

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"prode/migrations"
)

// PgBouncer is a throwaway PgBouncer of one test's own in front of its Cluster: Debian's, the
// package the chart's image installs, set as the chart's pgbouncer.ini sets it where a
// service can tell (charts/prode/templates/_pgbouncer.tpl): transaction pooling, and a bounded
// wait for a server connection. Only the login differs: the test cluster trusts everyone, so
// PgBouncer does too.
type PgBouncer struct {
	Port int
	t    testing.TB
	cmd  *exec.Cmd
	done chan struct{}
}

// PgBouncerSettings are the pgbouncer.ini values a scenario chooses.
type PgBouncerSettings struct {
	QueryWait  time.Duration // query_wait_timeout (the chart's pgbouncer.queryWaitSeconds)
	LoginRetry time.Duration // server_login_retry (the chart's pgbouncer.loginRetrySeconds)
}

// NewPgBouncer starts PgBouncer on a free port for the login roles of the services that own
// schemas; it is stopped when the test ends.
func NewPgBouncer(t testing.TB, c *Cluster, s PgBouncerSettings, schemas ...string) *PgBouncer {
	t.Helper()
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		bin = "/usr/sbin/pgbouncer"
		if _, err := os.Stat(bin); err != nil {
			t.Fatal("pgbouncer is not installed (apt-get install pgbouncer; make test installs it)")
		}
	}
	dir := filepath.Join(c.Dir, "pgbouncer")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // past the umask: PgBouncer writes its log there
		t.Fatal(err)
	}
	var users strings.Builder
	for _, schema := range schemas {
		fmt.Fprintf(&users, "%q \"\"\n", migrations.Role(schema))
	}
	p := &PgBouncer{Port: FreePort(t), t: t}
	ini := fmt.Sprintf(`[databases]
* = host=127.0.0.1 port=%d

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s
pool_mode = transaction
default_pool_size = 5
min_pool_size = 0
reserve_pool_size = 0
max_client_conn = 200
query_wait_timeout = %g
server_login_retry = %g
log_connections = 0
log_disconnections = 0
logfile = %s
`, c.Port, p.Port, filepath.Join(dir, "users.txt"), s.QueryWait.Seconds(), s.LoginRetry.Seconds(), filepath.Join(dir, "pgbouncer.log"))
	for name, text := range map[string]string{"users.txt": users.String(), "pgbouncer.ini": ini} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// PgBouncer refuses to run as root: as the cluster's binaries, it runs as postgres then.
	p.cmd = c.asPostgres(bin, filepath.Join(dir, "pgbouncer.ini"))
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // stopped with what runuser started
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("pgbouncer: %v", err)
	}
	p.done = make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(p.stop)
	p.waitListening(filepath.Join(dir, "pgbouncer.log"))
	return p
}

// URL is u (a service's URL on the cluster) through PgBouncer, with the parameters the chart
// gives a service's URL there (prode.databaseEnv): no prepared statements, as transaction
// pooling requires.
func (p *PgBouncer) URL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		p.t.Fatal(err)
	}
	parsed.Host = fmt.Sprintf("127.0.0.1:%d", p.Port)
	q := parsed.Query()
	q.Set("default_query_exec_mode", "exec")
	q.Set("connect_timeout", "10")
	parsed.RawQuery = q.Encode()
	return parsed.String()
}

func (p *PgBouncer) waitListening(logfile string) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			log, _ := os.ReadFile(logfile)
			p.t.Fatalf("pgbouncer exited at start:\n%s", log)
		default:
		}
		if conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", p.Port)); err == nil {
			conn.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatal("pgbouncer never listened")
}

func (p *PgBouncer) stop() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}
