package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// machine describes where the figures were taken, and the versions of what took part.
func machine() []string {
	cpu := "unknown CPU"
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	mem := ""
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		fmt.Sscanf(strings.SplitN(string(raw), "\n", 2)[0], "MemTotal: %d kB", &kb)
		mem = fmt.Sprintf("%.1f GiB RAM", float64(kb)/(1<<20))
	}
	lines := []string{fmt.Sprintf("%s, %d cores, %s, %s", cpu, runtime.NumCPU(), mem, kernel())}
	for _, v := range [][]string{
		{"go", "version"}, {"/usr/lib/postgresql/15/bin/postgres", "--version"}, {"redis-server", "--version"},
		{"nginx", "-v"}, {"wrk", "-v"}, {"chromium", "--version"}, {"node", "--version"},
	} {
		// The version on stdout, else stderr (nginx -v), whatever else the command prints there
		// (Debian's chromium wrapper prints a shell warning on stderr).
		var stderr strings.Builder
		cmd := exec.Command(v[0], v[1:]...)
		cmd.Stderr = &stderr
		out, _ := cmd.Output()
		if strings.TrimSpace(string(out)) == "" {
			out = []byte(stderr.String())
		}
		first := strings.TrimSpace(strings.SplitN(strings.TrimSpace(string(out)), "\n", 2)[0])
		if first == "" {
			first = "not found"
		}
		lines = append(lines, fmt.Sprintf("%s: %s", v[0], first))
	}
	return lines
}

// writeMachine is a report's section on the machine.
func writeMachine(w func(format string, args ...any), machine []string) {
	w("## Machine")
	w("")
	for _, m := range machine {
		w("- %s", m)
	}
	w("")
}

func kernel() string {
	raw, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "Linux"
	}
	return "Linux " + strings.TrimSpace(string(raw))
}
