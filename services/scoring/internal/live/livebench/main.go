// Command livebench measures the live hub at scale: how much memory N open event streams
// (GET /api/eventos) cost one replica, and how long an announced event takes to reach all of
// them. It starts a scoring-like server as a second process (itself with -serve: the shared
// middleware of httpserver, scoring's runtime settings, a live.Hub with the handler's
// reserve-hijack-adopt), opens N streams to it from this process, and reports the server's
// resident memory and Go heap before and after, the time from Announce to each client (median,
// p95, max), the server's CPU per broadcast, and how fast SIGTERM closes every stream.
//
//	cd services/scoring && go run ./internal/live/livebench -streams 10000
//
// Both processes need a file descriptor per stream: raise `ulimit -n` first (Go raises the soft
// limit to the hard one by itself). -redis (default $PRODE_TEST_REDIS_URL) makes Announce
// publish too, as in production; without it the hub runs alone.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"prode/platform/apierror"
	"prode/platform/cache"
	"prode/platform/httpserver"
	"prode/platform/service"
	"prode/scoring/internal/live"
	"prode/scoring/internal/metrics"
)

func main() {
	serve := flag.Bool("serve", false, "run the scoring-like server (the benchmark starts it)")
	classic := flag.Bool("classic", false, "compare: a server that keeps each stream in its handler (a goroutine and net/http's buffers per stream) instead of the hub")
	streams := flag.Int("streams", 10_000, "event streams to open")
	announces := flag.Int("announces", 20, "events to announce once the streams are open")
	interval := flag.Duration("interval", 250*time.Millisecond, "pause between announces")
	settle := flag.Duration("settle", 3*time.Second, "wait after opening the streams before measuring memory")
	dialers := flag.Int("dialers", 64, "streams opened at once")
	redisURL := flag.String("redis", os.Getenv("PRODE_TEST_REDIS_URL"), "Redis URL for the hub (empty: none)")
	jsonOut := flag.String("json", "", "also write the figures as JSON to this file")
	flag.Parse()
	log.SetFlags(log.Ltime)
	log.SetPrefix("livebench: ")
	if *serve {
		if err := runServer(*redisURL, *classic); err != nil {
			log.Fatal(err)
		}
		return
	}
	r, err := bench(*streams, *announces, *interval, *settle, *dialers, *redisURL, *classic)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(r.text())
	if *jsonOut != "" {
		raw, _ := json.MarshalIndent(r, "", "  ")
		if err := os.WriteFile(*jsonOut, append(raw, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// --- the server (child process) ---------------------------------------------------------

// memStats is what the server reports of its Go heap, after a collection.
type memStats struct {
	HeapInuse  uint64 `json:"heap_inuse"`
	StackInuse uint64 `json:"stack_inuse"`
	Sys        uint64 `json:"sys"`
	Goroutines int    `json:"goroutines"`
	Open       int    `json:"open"`
}

func runServer(redisURL string, classic bool) error {
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	service.TuneRuntime(logger) // scoring's GOGC and memory limit
	var rdb redis.UniversalClient
	if redisURL != "" {
		c, err := cache.Connect(redisURL, "")
		if err != nil {
			return err
		}
		defer c.Close()
		rdb = c
	}
	server := httpserver.New(httpserver.Config{Service: "scoring"}, logger)
	hub := live.New(rdb, "livebench-"+strconv.Itoa(os.Getpid())+":", nil, &metrics.New(prometheus.NewRegistry()).Live, logger,
		live.Options{MaxStreams: 1 << 20})
	// What scoring's EventsHandlers.stream does (services/scoring/internal/http/events_handlers.go).
	server.Engine.GET("/api/eventos", func(c *gin.Context) {
		last, _ := strconv.ParseInt(c.GetHeader("Last-Event-ID"), 10, 64)
		if err := hub.Reserve(); err != nil {
			httpserver.Fail(c, apierror.ErrUnavailable.Wrap(err))
			return
		}
		conn, _, err := c.Writer.Hijack()
		if err != nil {
			hub.Unreserve()
			httpserver.Fail(c, apierror.ErrUnavailable.Wrap(err))
			return
		}
		hub.Adopt(conn, live.Head(c.Writer.Header()), last)
	})

	var next atomic.Int64
	announce := func(ctx context.Context, e live.Event) {
		if err := hub.Announce(ctx, e); err != nil {
			logger.Warn("publish", slog.String("error", err.Error()))
		}
	}
	open := hub.Open
	if classic {
		c := newClassic()
		server.Engine.GET("/api/clasico", c.stream)
		announce, open = c.announce, c.open
	}
	admin := http.NewServeMux()
	admin.HandleFunc("POST /announce", func(w http.ResponseWriter, r *http.Request) {
		id := next.Add(1)
		announce(r.Context(), live.Event{ID: id, Torneo: 1})
		_, _ = fmt.Fprint(w, id) // a client that hung up has no use for it
	})
	admin.HandleFunc("GET /mem", func(w http.ResponseWriter, r *http.Request) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		_ = json.NewEncoder(w).Encode(memStats{HeapInuse: m.HeapInuse, StackInuse: m.StackInuse, Sys: m.Sys,
			Goroutines: runtime.NumGoroutine(), Open: open()})
	})

	apiLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	adminLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	// The API server's timeouts are httpserver.Run's: the hub must clear them on the streams.
	api := &http.Server{Handler: server.Engine, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 90 * time.Second}
	go func() { _ = api.Serve(apiLn) }()
	go func() { _ = http.Serve(adminLn, admin) }()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	done := make(chan struct{})
	go func() { hub.Run(ctx); close(done) }()
	fmt.Printf("listening %s %s\n", apiLn.Addr(), adminLn.Addr())
	<-ctx.Done()
	if classic {
		_ = api.Close() // Shutdown would wait for every stream's handler
	}
	_ = api.Shutdown(context.Background()) // as httpserver.Run: hijacked streams are not waited for
	<-done                                 // Run closed every stream
	return nil
}

// --- the benchmark (parent process) -----------------------------------------------------

type report struct {
	Classic       bool    `json:"classic"` // the comparison server, not the hub
	Streams       int     `json:"streams"`
	OpenSeconds   float64 `json:"open_seconds"`
	RSSBeforeMiB  float64 `json:"rss_before_mib"`
	RSSAfterMiB   float64 `json:"rss_after_mib"`
	RSSPeakMiB    float64 `json:"rss_peak_mib"`
	HeapBeforeMiB float64 `json:"heap_before_mib"`
	HeapAfterMiB  float64 `json:"heap_after_mib"`
	Goroutines    [2]int  `json:"goroutines"` // before, after
	KernelSlabMiB float64 `json:"kernel_slab_mib"`
	// Per stream, bytes.
	RSSPerStream  float64 `json:"rss_per_stream"`
	HeapPerStream float64 `json:"heap_per_stream"`
	// StreamsIn64MiB is how many streams 64 MiB of resident memory holds at RSSPerStream.
	StreamsIn64MiB int `json:"streams_in_64mib"`

	Announces    int     `json:"announces"`
	Delivered    int     `json:"delivered"` // events received, of Announces × Streams
	LatencyP50ms float64 `json:"latency_p50_ms"`
	LatencyP95ms float64 `json:"latency_p95_ms"`
	LatencyMaxms float64 `json:"latency_max_ms"`
	// LastP50ms is the median, over announces, of the time until the last stream had it.
	LastP50ms float64 `json:"last_p50_ms"`
	// CPUPerBroadcastms is the server's CPU time (user + system) per announce.
	CPUPerBroadcastms float64 `json:"cpu_per_broadcast_ms"`

	ShutdownSeconds float64 `json:"shutdown_seconds"` // SIGTERM until every stream ended
	Dropped         int64   `json:"dropped"`          // streams that ended before the shutdown
}

func bench(n, announces int, interval, settle time.Duration, dialers int, redisURL string, classic bool) (*report, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < uint64(n)+200 {
		return nil, fmt.Errorf("ulimit -n is %d: %d streams need at least %d here and in the server (raise it: ulimit -n %d)",
			lim.Cur, n, n+200, n+1000)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"-serve", "-redis", redisURL}
	path := "/api/eventos"
	if classic {
		args, path = append(args, "-classic"), "/api/clasico"
	}
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	var apiAddr, adminAddr string
	if _, err := fmt.Sscanf(line, "listening %s %s", &apiAddr, &adminAddr); err != nil {
		return nil, fmt.Errorf("server said %q", line)
	}
	pid := cmd.Process.Pid
	admin := "http://" + adminAddr

	r := &report{Streams: n, Announces: announces, Classic: classic}
	time.Sleep(time.Second)
	before, err := serverMem(admin)
	if err != nil {
		return nil, err
	}
	time.Sleep(500 * time.Millisecond)
	r.RSSBeforeMiB = procMiB(pid, "VmRSS")
	r.HeapBeforeMiB = mib(before.HeapInuse + before.StackInuse)
	r.Goroutines[0] = before.Goroutines
	slab0 := meminfoMiB("Slab")

	log.Printf("opening %d streams", n)
	clients := make([]*sseClient, n)
	lat := make([][]int64, announces) // [announce][stream] ns since the announce started, 0: not received
	for k := range lat {
		lat[k] = make([]int64, n)
	}
	starts := make([]atomic.Int64, announces) // unix ns when each announce was sent
	got := make([]atomic.Int64, announces)
	var ended, early atomic.Int64
	shuttingDown := atomic.Bool{}
	endedAll := make(chan struct{})

	start := time.Now()
	var wg sync.WaitGroup
	work := make(chan int)
	var openErr atomic.Value
	for range dialers {
		wg.Go(func() {
			for i := range work {
				c, err := openStream(apiAddr, path)
				if err != nil {
					openErr.CompareAndSwap(nil, err)
					continue
				}
				clients[i] = c
				go func() {
					c.read(func(id int64) {
						k := int(id) - 1
						if k < 0 || k >= announces {
							return
						}
						lat[k][i] = time.Now().UnixNano() - starts[k].Load()
						got[k].Add(1)
					})
					if !shuttingDown.Load() {
						early.Add(1)
					}
					if ended.Add(1) == int64(n) {
						close(endedAll)
					}
				}()
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	if err, _ := openErr.Load().(error); err != nil {
		return nil, fmt.Errorf("opening the streams: %w", err)
	}
	r.OpenSeconds = time.Since(start).Seconds()
	log.Printf("%d streams open in %.1f s; settling %v", n, r.OpenSeconds, settle)

	time.Sleep(settle)
	r.RSSAfterMiB = procMiB(pid, "VmRSS")
	r.RSSPeakMiB = procMiB(pid, "VmHWM")
	after, err := serverMem(admin)
	if err != nil {
		return nil, err
	}
	if after.Open != n {
		return nil, fmt.Errorf("the server holds %d streams, want %d", after.Open, n)
	}
	r.HeapAfterMiB = mib(after.HeapInuse + after.StackInuse)
	r.Goroutines[1] = after.Goroutines
	r.KernelSlabMiB = meminfoMiB("Slab") - slab0
	r.RSSPerStream = (r.RSSAfterMiB - r.RSSBeforeMiB) * (1 << 20) / float64(n)
	r.HeapPerStream = (r.HeapAfterMiB - r.HeapBeforeMiB) * (1 << 20) / float64(n)
	if r.RSSPerStream > 0 {
		r.StreamsIn64MiB = int(64 * (1 << 20) / r.RSSPerStream)
	}

	log.Printf("announcing %d events", announces)
	cpu0 := procCPU(pid)
	var lasts []float64
	for k := range announces {
		starts[k].Store(time.Now().UnixNano())
		resp, err := http.Post(admin+"/announce", "text/plain", nil)
		if err != nil {
			return nil, err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.TrimSpace(string(body)) != strconv.Itoa(k+1) {
			return nil, fmt.Errorf("announce %d: the server announced %q", k+1, body)
		}
		deadline := time.Now().Add(10 * time.Second)
		for got[k].Load() < int64(n) && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		var last int64
		for _, d := range lat[k] {
			last = max(last, d)
		}
		lasts = append(lasts, ms(last))
		time.Sleep(interval)
	}
	r.CPUPerBroadcastms = (procCPU(pid) - cpu0) * 1000 / float64(announces)

	var all []float64
	for k := range lat {
		for _, d := range lat[k] {
			if d > 0 {
				all = append(all, ms(d))
			}
		}
	}
	r.Delivered = len(all)
	r.LatencyP50ms, r.LatencyP95ms, r.LatencyMaxms = quantile(all, 0.5), quantile(all, 0.95), quantile(all, 1)
	r.LastP50ms = quantile(lasts, 0.5)
	r.Dropped = early.Load()

	log.Print("SIGTERM")
	shuttingDown.Store(true)
	start = time.Now()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-endedAll:
		r.ShutdownSeconds = time.Since(start).Seconds()
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("%d of %d streams still open 30 s after SIGTERM", int64(n)-ended.Load(), n)
	}
	return r, nil
}

func (r *report) text() string {
	var b strings.Builder
	if r.Classic {
		b.WriteString("COMPARISON: a goroutine and net/http's buffers per stream, not the hub\n")
	}
	fmt.Fprintf(&b, "streams                %d, opened in %.1f s\n", r.Streams, r.OpenSeconds)
	fmt.Fprintf(&b, "server RSS             %.1f -> %.1f MiB (peak %.1f): %.0f bytes per stream -> %d streams in 64 MiB\n",
		r.RSSBeforeMiB, r.RSSAfterMiB, r.RSSPeakMiB, r.RSSPerStream, r.StreamsIn64MiB)
	fmt.Fprintf(&b, "server Go heap+stacks  %.1f -> %.1f MiB after GC: %.0f bytes per stream; goroutines %d -> %d\n",
		r.HeapBeforeMiB, r.HeapAfterMiB, r.HeapPerStream, r.Goroutines[0], r.Goroutines[1])
	fmt.Fprintf(&b, "kernel slab (machine)  +%.1f MiB for both ends of the %d connections (not in RSS)\n", r.KernelSlabMiB, r.Streams)
	fmt.Fprintf(&b, "announce -> client     p50 %.1f ms, p95 %.1f ms, max %.1f ms; last stream p50 %.1f ms (%d of %d delivered)\n",
		r.LatencyP50ms, r.LatencyP95ms, r.LatencyMaxms, r.LastP50ms, r.Delivered, r.Announces*r.Streams)
	fmt.Fprintf(&b, "server CPU             %.1f ms per broadcast to %d streams\n", r.CPUPerBroadcastms, r.Streams)
	fmt.Fprintf(&b, "SIGTERM                every stream closed in %.2f s; %d ended early\n", r.ShutdownSeconds, r.Dropped)
	return b.String()
}

// sseClient is one stream, read line by line.
type sseClient struct {
	conn net.Conn
	r    *bufio.Reader
}

func openStream(addr, path string) (*sseClient, error) {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: livebench\r\n\r\n"); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReaderSize(conn, 256)
	status, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 200") {
		conn.Close()
		return nil, fmt.Errorf("status %q: %v", status, err)
	}
	for { // the head, then the retry field and its blank line
		line, err := r.ReadString('\n')
		if err != nil {
			conn.Close()
			return nil, err
		}
		if strings.HasPrefix(line, "retry:") {
			break
		}
	}
	_ = conn.SetReadDeadline(time.Time{})
	return &sseClient{conn: conn, r: r}, nil
}

// read calls onEvent with each event's id until the stream ends.
func (c *sseClient) read(onEvent func(id int64)) {
	defer c.conn.Close()
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return
		}
		if rest, ok := bytes.CutPrefix(line, []byte("id: ")); ok {
			id, _ := strconv.ParseInt(string(bytes.TrimSpace(rest)), 10, 64)
			onEvent(id)
		}
	}
}

func serverMem(admin string) (memStats, error) {
	var m memStats
	resp, err := http.Get(admin + "/mem")
	if err != nil {
		return m, err
	}
	defer resp.Body.Close()
	return m, json.NewDecoder(resp.Body).Decode(&m)
}

// procMiB reads a field of /proc/<pid>/status in MiB (VmRSS, VmHWM).
func procMiB(pid int, field string) float64 {
	raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	return kBField(string(raw), field)
}

func meminfoMiB(field string) float64 {
	raw, _ := os.ReadFile("/proc/meminfo")
	return kBField(string(raw), field)
}

func kBField(text, field string) float64 {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// procCPU is the user plus system CPU seconds of a process.
func procCPU(pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100 // USER_HZ
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func ms(ns int64) float64 { return float64(ns) / 1e6 }

func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// classic is the design the hub replaces, for comparison: each stream stays in its handler,
// with its goroutine and net/http's connection buffers, woken by a channel per stream.
type classic struct {
	mu      sync.Mutex
	streams map[chan struct{}]struct{}
	latest  atomic.Pointer[live.Event]
}

func newClassic() *classic { return &classic{streams: map[chan struct{}]struct{}{}} }

func (c *classic) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.streams)
}

func (c *classic) announce(_ context.Context, e live.Event) {
	c.latest.Store(&e)
	c.mu.Lock()
	defer c.mu.Unlock()
	for ch := range c.streams {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (c *classic) stream(g *gin.Context) {
	w := g.Writer
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, "retry: 3000\n\n")
	_ = rc.Flush()
	ch := make(chan struct{}, 1)
	c.mu.Lock()
	c.streams[ch] = struct{}{}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.streams, ch)
		c.mu.Unlock()
	}()
	ping := time.NewTicker(live.DefaultHeartbeat)
	defer ping.Stop()
	for {
		var err error
		select {
		case <-g.Request.Context().Done():
			return
		case <-ch:
			e := c.latest.Load()
			_, err = fmt.Fprintf(w, "id: %d\nevent: posiciones\ndata: {\"torneo\":%d,\"version\":%d}\n\n", e.ID, e.Torneo, e.ID)
		case <-ping.C:
			_, err = io.WriteString(w, ": ping\n\n")
		}
		if err != nil || rc.Flush() != nil {
			return
		}
	}
}
