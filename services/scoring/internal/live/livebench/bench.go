package main

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

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
