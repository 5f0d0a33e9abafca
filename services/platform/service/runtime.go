package service

import (
	"log/slog"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// defaultGCPercent is GOGC when the environment does not set it. A service's live heap is a
// few MiB, so at Go's default of 100 a burst of requests starts a collection every few MiB
// allocated, and the collector takes a large share of the CPU. 200 collects half as often for
// little more memory; higher settings save little more CPU and cost a lot of memory in a rush
// (docs/benchmarks.md, "What limits each figure"). The memory limit below keeps any setting
// from growing into the container's limit.
const defaultGCPercent = 200

// memoryLimitShare of the container's memory limit is the Go runtime's soft limit when
// GOMEMLIMIT is not set: near it the collector runs as often as it must, well before the
// kernel would kill the pod. The rest is headroom for what the runtime does not count, and
// for a soft limit's overshoot: with GOMEMLIMIT at the whole 512 MiB, scoring's resident
// memory peaked at 527 MiB under make bench-scale's 10,000 streams at 2 million players
// (docs/benchmarks-scale.md, session 23), which would have been killed in such a container.
const memoryLimitShare = 0.85

// cgroupMemoryMax is where cgroup v2 publishes the container's memory limit.
const cgroupMemoryMax = "/sys/fs/cgroup/memory.max"

// TuneRuntime sets the collector's defaults for a small service in a container, unless GOGC or
// GOMEMLIMIT say otherwise, and logs what it chose. The container's memory limit is
// MEMORY_LIMIT's bytes (the chart sets it from limits.memory, which any node reports) or else
// cgroup v2's memory.max.
func TuneRuntime(log *slog.Logger) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		container := os.Getenv("MEMORY_LIMIT")
		if container == "" {
			if raw, err := os.ReadFile(cgroupMemoryMax); err == nil {
				container = string(raw)
			}
		}
		if limit, ok := memoryLimit(container); ok {
			debug.SetMemoryLimit(limit)
		}
	}
	gogc := debug.SetGCPercent(-1)
	debug.SetGCPercent(gogc)
	log.Info("runtime", slog.Int("gogc", gogc), slog.Int64("memory_limit_bytes", debug.SetMemoryLimit(-1)))
}

// memoryLimit is memoryLimitShare of a container's memory limit in bytes (MEMORY_LIMIT, or a
// cgroup memory.max value); "max" (no limit) or anything unreadable gives none.
func memoryLimit(memoryMax string) (int64, bool) {
	bytes, err := strconv.ParseInt(strings.TrimSpace(memoryMax), 10, 64)
	if err != nil || bytes <= 0 {
		return 0, false
	}
	return int64(float64(bytes) * memoryLimitShare), true
}
