package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// PGBin is where Debian's PostgreSQL 15 binaries are (dev/lib.sh uses the same).
var PGBin = "/usr/lib/postgresql/15/bin"

// Cluster is a throwaway PostgreSQL cluster of one test's own, which the test may stop and
// start (fault scenarios). It is built like dev/lib.sh's: initdb and pg_ctl, run as the
// postgres user when the test runs as root.
type Cluster struct {
	Dir  string
	Port int
	t    testing.TB
}

// NewCluster initialises and starts a cluster, stopped when the test ends.
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "prode-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("remove the test cluster's folder: %v", err)
		}
	})
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	port := FreePort(t) // Kill and Start use it again: below the ephemeral range
	c := &Cluster{Dir: dir, Port: port, t: t}
	c.run("initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
	// fsync off only matters if the machine crashes, which the scenarios do not do; commits stay
	// synchronous, so an acknowledged write survives an immediate (crash) stop of the server.
	conf := fmt.Sprintf("listen_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = '%s'\nfsync = off\nfull_page_writes = off\nmax_connections = 100\n", port, dir)
	f, err := os.OpenFile(filepath.Join(c.data(), "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(conf); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	c.Start()
	t.Cleanup(func() {
		// A test may have stopped it already (Kill): then there is nothing to stop.
		if err := c.pgctl("stop", "-m", "immediate"); err != nil {
			t.Logf("pg_ctl stop: %v", err)
		}
	})
	return c
}

// UseOwnCluster starts a cluster of the test's own (NewCluster) and makes it the one NewDB
// creates the test's databases on (PRODE_TEST_PG_ADMIN_URL): for a test that stops PostgreSQL,
// which must not stop the one every other test shares.
func UseOwnCluster(t *testing.T) *Cluster {
	t.Helper()
	c := NewCluster(t)
	t.Setenv("PRODE_TEST_PG_ADMIN_URL", c.AdminURL())
	return c
}

// AdminURL is the superuser's URL (for PRODE_TEST_PG_ADMIN_URL).
func (c *Cluster) AdminURL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.Port)
}

// Start starts the server and waits until it accepts connections.
func (c *Cluster) Start() {
	c.t.Helper()
	if err := c.pgctl("start", "-w", "-t", "30", "-l", filepath.Join(c.Dir, "postgres.log")); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.Dir, "postgres.log"))
		c.t.Fatalf("pg_ctl start: %v\n%s", err, log)
	}
}

// Kill stops the server at once, as a crash or a failover does (pg_ctl stop -m immediate).
func (c *Cluster) Kill() {
	c.t.Helper()
	if err := c.pgctl("stop", "-m", "immediate", "-w"); err != nil {
		c.t.Fatalf("pg_ctl stop: %v", err)
	}
}

func (c *Cluster) data() string { return filepath.Join(c.Dir, "data") }

func (c *Cluster) pgctl(args ...string) error {
	args = append([]string{"-D", c.data()}, args...)
	cmd := c.command("pg_ctl", args...)
	cmd.Stdout, cmd.Stderr = nil, nil
	return cmd.Run()
}

func (c *Cluster) run(name string, args ...string) {
	c.t.Helper()
	if out, err := c.command(name, args...).CombinedOutput(); err != nil {
		c.t.Fatalf("%s: %v\n%s", name, err, out)
	}
}

// command runs a PostgreSQL binary, as the postgres user when we are root.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	return c.asPostgres(filepath.Join(PGBin, name), args...)
}

// asPostgres runs bin as the postgres user when we are root (PostgreSQL and PgBouncer refuse
// root), with the cluster's folder theirs.
func (c *Cluster) asPostgres(bin string, args ...string) *exec.Cmd {
	if os.Geteuid() != 0 {
		return exec.Command(bin, args...)
	}
	cmd := exec.Command("runuser", append([]string{"-u", "postgres", "--", bin}, args...)...)
	if u, err := user.Lookup("postgres"); err == nil {
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		_ = os.Chown(c.Dir, uid, gid)
	}
	return cmd
}

// WaitDown waits until nothing listens on the port.
func (c *Cluster) WaitDown(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", c.Port))
		if err != nil {
			return
		}
		conn.Close()
		time.Sleep(50 * time.Millisecond)
	}
	c.t.Fatal("PostgreSQL still listens")
}
