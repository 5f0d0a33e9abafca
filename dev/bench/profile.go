package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ticksPerSecond is USER_HZ, 100 on every Linux we run on.
const ticksPerSecond = 100

// processCPU is one process's name and the CPU time it has used so far.
type processCPU struct {
	name    string
	seconds float64
}

// cpuByProcess reads every process's CPU time so far (/proc/<pid>/stat: utime + stime).
// Kernel workers rename themselves as they change queues: they are counted as one name.
func cpuByProcess() map[int]processCPU {
	out := map[int]processCPU{}
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		s := string(raw)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		name := s[open+1 : closing]
		if strings.HasPrefix(name, "kworker") {
			name = "kernel workers"
		}
		fields := strings.Fields(s[closing+1:])
		if len(fields) < 13 {
			continue
		}
		utime, _ := strconv.ParseFloat(fields[11], 64)
		stime, _ := strconv.ParseFloat(fields[12], 64)
		if name == "postgres" {
			// PostgreSQL's postmaster reaps its backends: the CPU of those that have exited
			// (pgbench's, at the end of each run) is in its cutime and cstime.
			cutime, _ := strconv.ParseFloat(fields[13], 64)
			cstime, _ := strconv.ParseFloat(fields[14], 64)
			utime, stime = utime+cutime, stime+cstime
		}
		out[pid] = processCPU{name: name, seconds: (utime + stime) / ticksPerSecond}
	}
	return out
}

// cpuProfile adds up, by program, the CPU used during the measured runs of a subject: where
// the two cores went (the service, PostgreSQL, Redis, nginx, the load generator).
type cpuProfile struct {
	seconds map[string]float64
	wall    time.Duration
}

// measure runs f and charges the CPU used meanwhile to the profile. Processes that end during
// f (the load generator) are gone from /proc: f reports their CPU through charge.
func (p *cpuProfile) measure(f func(charge func(name string, seconds float64)) error) error {
	if p.seconds == nil {
		p.seconds = map[string]float64{}
	}
	charge := func(name string, seconds float64) { p.seconds[name] += seconds }
	before, start := cpuByProcess(), time.Now()
	err := f(charge)
	after := cpuByProcess()
	p.wall += time.Since(start)
	for pid, a := range after {
		if d := a.seconds - before[pid].seconds; d > 0 {
			p.seconds[a.name] += d
		}
	}
	return err
}

// cores is how many cores name kept busy on average.
func (p *cpuProfile) cores(name string) float64 {
	if p == nil || p.wall == 0 {
		return 0
	}
	return p.seconds[name] / p.wall.Seconds()
}

// microsPerRequest is name's CPU time per request at rps.
func (p *cpuProfile) microsPerRequest(name string, rps float64) float64 {
	return 1e6 * ratio(p.cores(name), rps)
}

// String lists the programs that used the most CPU, as cores busy on average (2 = both cores).
func (p *cpuProfile) String() string {
	if p == nil || p.wall == 0 {
		return "not measured"
	}
	names := make([]string, 0, len(p.seconds))
	for n := range p.seconds {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return int(1000 * (p.seconds[b] - p.seconds[a])) })
	var parts []string
	for _, n := range names[:min(5, len(names))] {
		if cores := p.seconds[n] / p.wall.Seconds(); cores >= 0.01 {
			parts = append(parts, fmt.Sprintf("%s %.2f", n, cores))
		}
	}
	return "cores busy: " + strings.Join(parts, ", ")
}
