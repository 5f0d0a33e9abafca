package main

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"time"
)

// scoringTx is scoring's own account of its transactions (prode_scoring_duration_seconds): how
// much of an end-to-end time was the scoring transaction itself.
type scoringTx struct {
	Seconds float64
	Count   float64
}

func (s scoringTx) sub(o scoringTx) scoringTx {
	return scoringTx{Seconds: s.Seconds - o.Seconds, Count: s.Count - o.Count}
}

func (s scoringTx) add(o scoringTx) scoringTx {
	return scoringTx{Seconds: s.Seconds + o.Seconds, Count: s.Count + o.Count}
}

// Mean is the mean time of one match's scoring transaction.
func (s scoringTx) Mean() time.Duration {
	if s.Count == 0 {
		return 0
	}
	return time.Duration(s.Seconds / s.Count * float64(time.Second))
}

func scoringMetrics(adminBase string) (scoringTx, error) {
	body, err := get(adminBase + "/metrics")
	if err != nil {
		return scoringTx{}, err
	}
	var s scoringTx
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		switch name {
		case "prode_scoring_duration_seconds_sum":
			s.Seconds, _ = strconv.ParseFloat(value, 64)
		case "prode_scoring_duration_seconds_count":
			s.Count, _ = strconv.ParseFloat(value, 64)
		}
	}
	return s, nil
}

// standingsSources counts scoring's standings answers by where they came from
// (prode_standings_cache_requests_total: local, hit, miss, error, stale).
func standingsSources(adminBase string) (map[string]float64, error) {
	body, err := get(adminBase + "/metrics")
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		series, value, ok := strings.Cut(sc.Text(), " ")
		rest, found := strings.CutPrefix(series, `prode_standings_cache_requests_total{result="`)
		if !ok || !found {
			continue
		}
		source, _, _ := strings.Cut(rest, `"`)
		out[source], _ = strconv.ParseFloat(value, 64)
	}
	return out, nil
}
