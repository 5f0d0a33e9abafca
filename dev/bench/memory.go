package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

var services = []string{"players", "fixtures", "predictions", "scoring"}

// rssMiB is a process's resident memory, from /proc (0 when it is gone).
func rssMiB(pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// memorySampler keeps, per phase, the largest resident memory seen of each service. The
// pid files are read at every sample: the rescore benchmark restarts scoring.
type memorySampler struct {
	stateDir string
	mu       sync.Mutex
	phase    string
	phases   []string
	peak     map[string]map[string]float64 // phase -> service -> MiB
}

func newMemorySampler(stateDir string) *memorySampler {
	return &memorySampler{stateDir: stateDir, peak: map[string]map[string]float64{}}
}

// Phase names what the samples from now on are taken under.
func (m *memorySampler) Phase(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.phase = name
	if m.peak[name] == nil {
		m.phases = append(m.phases, name)
		m.peak[name] = map[string]float64{}
	}
}

func (m *memorySampler) sample() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.phase == "" {
		return
	}
	for _, svc := range services {
		raw, err := os.ReadFile(filepath.Join(m.stateDir, "run", svc+".pid"))
		if err != nil {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
		if r := rssMiB(pid); r > m.peak[m.phase][svc] {
			m.peak[m.phase][svc] = r
		}
	}
}

// Run samples every interval until ctx ends.
func (m *memorySampler) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		m.sample()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Peak is the largest resident memory of svc seen during phase.
func (m *memorySampler) Peak(phase, svc string) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak[phase][svc]
}
