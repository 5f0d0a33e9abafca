package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

type firstLoadRun struct {
	FCPMS       float64 `json:"fcp_ms"`
	DCLMS       float64 `json:"dcl_ms"`
	LoadMS      float64 `json:"load_ms"`
	ScriptBytes float64 `json:"script_bytes"`
	Requests    int     `json:"requests"`
}

type webFigures struct {
	InitialJSKB           float64 // gzip level 9 of the entry chunk and its static imports
	FCPMS, DCLMS, LoadMS  float64 // medians
	ScriptBytes, Requests float64
	Runs                  int
}

var initialJS = regexp.MustCompile(`Initial JavaScript: ([0-9.]+) KB gzip`)

// firstLoad measures the built web app: its initial JavaScript (web/scripts/bundle-size.mjs,
// the build's own budget check) and first loads in headless Chromium through the stack's nginx.
func (b *bench) firstLoad(ctx context.Context) (webFigures, error) {
	var f webFigures
	size := exec.CommandContext(ctx, "node", "scripts/bundle-size.mjs")
	size.Dir = b.cfg.WebDir
	out, err := size.Output()
	m := initialJS.FindSubmatch(out)
	if err != nil || m == nil {
		return f, fmt.Errorf("bundle-size.mjs: %v\n%s", err, out)
	}
	f.InitialJSKB, _ = strconv.ParseFloat(string(m[1]), 64)

	// The script gives each run 30 s and three tries; this bounds the whole in case the browser
	// itself stops answering.
	loads, cancel := context.WithTimeout(ctx, time.Duration(b.cfg.WebRuns+1)*2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(loads, "node", "scripts/first-load.mjs", b.cfg.WebURL, strconv.Itoa(b.cfg.WebRuns))
	cmd.Dir = b.cfg.WebDir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		return f, fmt.Errorf("first-load.mjs: %w\n%s%s", err, out, stderr.String())
	}
	if stderr.Len() > 0 {
		log.Printf("first-load.mjs: %s", strings.TrimSpace(stderr.String()))
	}
	var parsed struct{ Runs []firstLoadRun }
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &parsed); err != nil {
		return f, fmt.Errorf("first-load.mjs printed %q: %w", out, err)
	}
	var fcp, dcl, load, bytes, reqs []float64
	for _, r := range parsed.Runs {
		fcp, dcl, load = append(fcp, r.FCPMS), append(dcl, r.DCLMS), append(load, r.LoadMS)
		bytes, reqs = append(bytes, r.ScriptBytes), append(reqs, float64(r.Requests))
	}
	f.FCPMS, f.DCLMS, f.LoadMS, f.ScriptBytes, f.Requests = median(fcp), median(dcl), median(load), median(bytes), median(reqs)
	f.Runs = len(parsed.Runs)
	return f, nil
}
