package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// streamFigures: open event streams (GET /api/eventos, services/scoring/internal/live) on the
// scoring service, what they cost it, and how long a result takes from its PUT to the event
// at every stream.
type streamFigures struct {
	Asked, Streams        int // Streams < Asked when the file descriptor limit allowed fewer
	Open                  time.Duration
	RSSBefore, RSSAfter   float64 // scoring's resident memory, MiB
	HeapBefore, HeapAfter float64 // scoring's Go heap in use (go_memstats_heap_inuse_bytes), MiB
	Results               int
	// Latencies are PUT-to-event times, one per result and stream; Last is, per result, the
	// time until the last stream had it.
	Latencies, Last []time.Duration
	Ended           int64 // streams that ended during the step (scoring dropped them)
}

// RSSPerStream is scoring's resident memory per open stream, in bytes.
func (s streamFigures) RSSPerStream() float64 {
	if s.Streams == 0 {
		return 0
	}
	return (s.RSSAfter - s.RSSBefore) * (1 << 20) / float64(s.Streams)
}

// StreamsIn64MiB is how many streams 64 MiB more of scoring's memory holds at that rate.
func (s streamFigures) StreamsIn64MiB() int {
	if per := s.RSSPerStream(); per > 0 {
		return int(64 * (1 << 20) / per)
	}
	return 0
}

// streams opens n event streams on scoring (straight to the service, like the other load
// benchmarks: the local nginx stands in for an ingress of many machines, not for its
// capacity), measures scoring's memory once they settle, then enters `results` results of
// one match through the fixtures API, as the organiser, and times each until every stream
// has its event. The streams close at the end.
func (b *bench) streams(ctx context.Context, admin player, partido int64, n, results int) (streamFigures, error) {
	f := streamFigures{Asked: n, Streams: n, Results: results}
	var lim syscall.Rlimit // Go raised the soft limit to the hard one at start
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < uint64(n)+500 {
		f.Streams = int(lim.Cur) - 500
		if f.Streams < 1 {
			return f, fmt.Errorf("file descriptor limit %d: raise ulimit -n", lim.Cur)
		}
	}
	n = f.Streams
	pid, err := servicePID(b.cfg.StateDir, "scoring")
	if err != nil {
		return f, err
	}
	u, err := url.Parse(b.cfg.ScoringBase)
	if err != nil {
		return f, err
	}
	f.RSSBefore = rssMiB(pid)
	if f.HeapBefore, err = heapInUseMiB(b.cfg.ScoringAdmin); err != nil {
		return f, err
	}

	// Each stream's reader records, for the result being timed (current), the time from its PUT
	// to the first event the stream gets after it.
	var (
		current atomic.Int64 // index of the result being timed; -1 before the first
		started atomic.Int64 // its PUT's start, unix ns
		got     = make([]atomic.Int64, results)
		lat     = make([][]int64, results)
		ended   atomic.Int64
		closing atomic.Bool
	)
	current.Store(-1)
	for k := range lat {
		lat[k] = make([]int64, n)
	}
	conns := make([]net.Conn, n)
	start := time.Now()
	var wg sync.WaitGroup
	work := make(chan int)
	var openErr atomic.Value
	for range 64 {
		wg.Go(func() {
			for i := range work {
				conn, r, err := openEventStream(u.Host)
				if err != nil {
					openErr.CompareAndSwap(nil, err)
					continue
				}
				conns[i] = conn
				go func() {
					defer func() {
						if !closing.Load() {
							ended.Add(1)
						}
					}()
					for {
						line, err := r.ReadSlice('\n')
						if err != nil {
							return
						}
						k := current.Load()
						if !bytes.HasPrefix(line, []byte("id: ")) || k < 0 || lat[k][i] != 0 {
							continue
						}
						lat[k][i] = time.Now().UnixNano() - started.Load()
						got[k].Add(1)
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
	defer func() {
		closing.Store(true)
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	if err, _ := openErr.Load().(error); err != nil {
		return f, fmt.Errorf("opening %d event streams: %w", n, err)
	}
	f.Open = time.Since(start)
	time.Sleep(3 * time.Second) // let the connect burst's garbage be collected
	f.RSSAfter = rssMiB(pid)
	if f.HeapAfter, err = heapInUseMiB(b.cfg.ScoringAdmin); err != nil {
		return f, err
	}

	for k := range results {
		score := [2]int{2, 1}
		if k%2 == 1 {
			score = [2]int{1, 2}
		}
		started.Store(time.Now().UnixNano())
		current.Store(int64(k))
		body := fmt.Sprintf(`{"goles_local":%d,"goles_visitante":%d}`, score[0], score[1])
		if err := put(fmt.Sprintf("%s/api/partidos/%d/resultado", b.cfg.FixturesBase, partido), admin.Cookie, body); err != nil {
			return f, err
		}
		deadline := time.Now().Add(b.patience.Event)
		for got[k].Load() < int64(n)-ended.Load() {
			if time.Now().After(deadline) {
				return f, fmt.Errorf("result %d: %d of %d streams had an event %s after the PUT", k+1, got[k].Load(), n, b.patience.Event)
			}
			time.Sleep(time.Millisecond)
		}
		var last int64
		for _, d := range lat[k] {
			if d > 0 {
				f.Latencies = append(f.Latencies, time.Duration(d))
				last = max(last, d)
			}
		}
		f.Last = append(f.Last, time.Duration(last))
		current.Store(-1)
		time.Sleep(time.Second)
	}
	f.Ended = ended.Load()
	return f, nil
}

// openEventStream sends GET /api/eventos and reads the response head and the retry field.
func openEventStream(host string) (net.Conn, *bufio.Reader, error) {
	conn, err := net.DialTimeout("tcp", host, 10*time.Second)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (net.Conn, *bufio.Reader, error) { conn.Close(); return nil, nil, err }
	if _, err := io.WriteString(conn, "GET /api/eventos HTTP/1.1\r\nHost: "+host+"\r\n\r\n"); err != nil {
		return fail(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReaderSize(conn, 256)
	status, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 200") {
		return fail(fmt.Errorf("GET /api/eventos: %q %v", strings.TrimSpace(status), err))
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return fail(err)
		}
		if strings.HasPrefix(line, "retry:") {
			break
		}
	}
	_ = conn.SetReadDeadline(time.Time{})
	return conn, r, nil
}

func servicePID(stateDir, svc string) (int, error) {
	raw, err := os.ReadFile(filepath.Join(stateDir, "run", svc+".pid"))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(raw)))
}

// heapInUseMiB reads a service's go_memstats_heap_inuse_bytes.
func heapInUseMiB(adminBase string) (float64, error) {
	body, err := get(adminBase + "/metrics")
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "go_memstats_heap_inuse_bytes "); ok {
			v, err := strconv.ParseFloat(rest, 64)
			return v / (1 << 20), err
		}
	}
	return 0, fmt.Errorf("%s/metrics: no go_memstats_heap_inuse_bytes", adminBase)
}

// percentile of durations (q in [0, 1]).
func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// Markdown is the report's section on the streams.
func (s streamFigures) Markdown() string {
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	w("## Live updates: %d open event streams on one scoring replica", s.Streams)
	w("")
	if s.Streams < s.Asked {
		w("(%d asked; the file descriptor limit allowed %d: raise `ulimit -n`.)", s.Asked, s.Streams)
		w("")
	}
	w("Each stream is a GET /api/eventos held open (services/scoring/internal/live: the handler hands the")
	w("connection to the hub, which keeps no goroutine or buffer per stream), opened straight to the")
	w("service by a second process in %.1f s. Then %d results of one match were entered through the", s.Open.Seconds(), s.Results)
	w("fixtures API, as the organiser, and each timed from its PUT until every stream had its event.")
	w("")
	w("| | value |")
	w("|---|---|")
	w("| scoring's resident memory | %.1f MiB before, %.1f MiB with the streams open: %.0f bytes a stream |", s.RSSBefore, s.RSSAfter, s.RSSPerStream())
	if s.RSSPerStream() > 0 {
		w("| streams within 64 MiB more memory, at that rate | %d (goal: 10,000) |", s.StreamsIn64MiB())
	} else { // too few streams to move the resident memory (the smoke run's 200)
		w("| streams within 64 MiB more memory, at that rate | not measurable: %d streams did not grow it (goal: 10,000) |", s.Streams)
	}
	w("| scoring's Go heap in use | %.1f MiB before, %.1f MiB after |", s.HeapBefore, s.HeapAfter)
	w("| result (PUT) to the event at a stream | median %s, p95 %s, max %s (goal: 2 s) |", streamMS(percentile(s.Latencies, .5)),
		streamMS(percentile(s.Latencies, .95)), streamMS(percentile(s.Latencies, 1)))
	w("| result to the event at the last stream | median %s over %d results |", streamMS(percentile(s.Last, .5)), len(s.Last))
	w("| streams scoring closed during the step | %d |", s.Ended)
	w("")
	w("Not in the resident memory: the kernel's own per connection (the TCP socket, its inode, dentry and")
	w("epoll entry, about 4 KiB a connection on this machine), which any design holding the connections pays.")
	return sb.String()
}

func streamMS(d time.Duration) string {
	return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
}
