package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// wrkReport is what reportLua prints at the end of a wrk run.
type wrkReport struct {
	Requests     int64   `json:"requests"`
	DurationUS   int64   `json:"duration_us"`
	P50US        float64 `json:"p50_us"`
	P95US        float64 `json:"p95_us"`
	P99US        float64 `json:"p99_us"`
	StatusErrors int64   `json:"status_errors"` // answers other than 2xx/3xx
	SocketErrors int64   `json:"socket_errors"` // connect, read, write and timeouts
	CPUSeconds   float64 `json:"-"`             // wrk's own, user + system
}

// RPS is the throughput of the run.
func (r wrkReport) RPS() float64 {
	if r.DurationUS == 0 {
		return 0
	}
	return float64(r.Requests) / (float64(r.DurationUS) / 1e6)
}

// reportLua makes wrk print one machine-readable line (wrk's own text has no p95).
const reportLua = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH {"requests":%d,"duration_us":%d,"p50_us":%.1f,"p95_us":%.1f,"p99_us":%.1f,"status_errors":%d,"socket_errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
`

// wrkRun is one load: a URL, the connections and an optional Lua script that builds requests.
type wrkRun struct {
	URL         string
	Connections int
	Duration    time.Duration
	RequestLua  string // defines request(); "" for a plain GET of URL
	// Cookie is sent with every request ("": none). It is a fixed header, not a request()
	// function, so that wrk keeps sending one request built once: a GET behind a session is then
	// measured exactly as a public one, and its reference (nginx) is sent the same bytes.
	Cookie string
}

// script is the Lua wrk runs: the cookie, the requests and the report line.
func (w wrkRun) script() string {
	var head string
	if w.Cookie != "" {
		head = fmt.Sprintf("wrk.headers[\"Cookie\"] = %q\n", w.Cookie)
	}
	return head + w.RequestLua + reportLua
}

// run executes wrk with one thread (the other core is the server's) and returns its report.
func (w wrkRun) run(ctx context.Context, dir string) (wrkReport, error) {
	script := filepath.Join(dir, fmt.Sprintf("wrk-%d.lua", time.Now().UnixNano()))
	if err := os.WriteFile(script, []byte(w.script()), 0o600); err != nil {
		return wrkReport{}, err
	}
	defer os.Remove(script)
	cmd := exec.CommandContext(ctx, "wrk", "-t1", fmt.Sprintf("-c%d", w.Connections),
		fmt.Sprintf("-d%ds", int(w.Duration.Seconds())), "--timeout", "5s", "-s", script, w.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return wrkReport{}, fmt.Errorf("wrk %s: %w\n%s", w.URL, err, out)
	}
	r, err := parseWrk(out)
	r.CPUSeconds = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return r, err
}

func parseWrk(out []byte) (wrkReport, error) {
	var r wrkReport
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "BENCH "); ok {
			err := json.Unmarshal([]byte(line), &r)
			return r, err
		}
	}
	return r, fmt.Errorf("no BENCH line in wrk's output:\n%s", out)
}

// httpFigures are the medians of repeated wrk runs.
type httpFigures struct {
	RPS, P50MS, P95MS, P99MS float64
	MeanMS                   float64 // pgbench reports a mean, not percentiles
	Requests, Errors         int64
	Runs                     int
}

func summarise(reports []wrkReport) httpFigures {
	var rps, p50, p95, p99 []float64
	f := httpFigures{Runs: len(reports)}
	for _, r := range reports {
		rps = append(rps, r.RPS())
		p50 = append(p50, r.P50US/1000)
		p95 = append(p95, r.P95US/1000)
		p99 = append(p99, r.P99US/1000)
		f.Requests += r.Requests
		f.Errors += r.StatusErrors + r.SocketErrors
	}
	f.RPS, f.P50MS, f.P95MS, f.P99MS = median(rps), median(p50), median(p95), median(p99)
	return f
}

// comparison is a subject measured beside its reference in the same run, with where the CPU
// went during the measured runs of each.
type comparison struct {
	Subject, Reference       httpFigures
	SubjectCPU, ReferenceCPU cpuProfile
	BodyBytes                int
	Profile                  serviceProfile // the service's CPU profile in one more run
}

// compareHTTP alternates runs of the subject and the reference (so that drift in the
// machine's load hits both alike) after one warm-up run of each.
func compareHTTP(ctx context.Context, dir string, subject, reference wrkRun, repeats int) (comparison, error) {
	var c comparison
	var subj, ref []wrkReport
	for i := -1; i < repeats; i++ {
		for _, side := range []struct {
			run  wrkRun
			into *[]wrkReport
			cpu  *cpuProfile
		}{{subject, &subj, &c.SubjectCPU}, {reference, &ref, &c.ReferenceCPU}} {
			run := side.run
			if i < 0 { // warm-up, not counted
				run.Duration = min(run.Duration, 2*time.Second)
				if _, err := run.run(ctx, dir); err != nil {
					return c, err
				}
				continue
			}
			err := side.cpu.measure(func(charge func(string, float64)) error {
				r, err := run.run(ctx, dir)
				charge("wrk", r.CPUSeconds)
				*side.into = append(*side.into, r)
				return err
			})
			if err != nil {
				return c, err
			}
		}
	}
	c.Subject, c.Reference = summarise(subj), summarise(ref)
	return c, nil
}
