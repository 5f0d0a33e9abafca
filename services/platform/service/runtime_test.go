package service

import (
	"log/slog"
	"runtime/debug"
	"testing"
)

func TestMemoryLimitIsAShareOfTheContainers(t *testing.T) {
	for in, want := range map[string]int64{
		"134217728\n": 114085068, // 128 MiB × 0.85
		"268435456":   228170137,
		"max\n":       0,
		"":            0,
		"-1":          0,
	} {
		got, ok := memoryLimit(in)
		if got != want || ok != (want > 0) {
			t.Errorf("memoryLimit(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
}

func TestTheContainersMemoryLimitComesFromMemoryLimit(t *testing.T) {
	gogc, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(gogc)
	t.Cleanup(func() {
		debug.SetGCPercent(gogc)
		debug.SetMemoryLimit(limit)
	})
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("MEMORY_LIMIT", "536870912") // the chart's limits.memory of 512Mi
	TuneRuntime(slog.New(slog.DiscardHandler))
	if got, want := debug.SetMemoryLimit(-1), int64(456340275); got != want {
		t.Errorf("soft memory limit %d; want %d, 85 %% of the container's 512 MiB", got, want)
	}

	t.Setenv("GOMEMLIMIT", "300MiB") // an operator's own setting wins
	debug.SetMemoryLimit(300 << 20)
	TuneRuntime(slog.New(slog.DiscardHandler))
	if got := debug.SetMemoryLimit(-1); got != 300<<20 {
		t.Errorf("soft memory limit %d with GOMEMLIMIT set; want it left at 300 MiB", got)
	}
}
