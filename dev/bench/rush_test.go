package main

import (
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// A rush passes only with fewer than 0.1 % failed answers (4xx, 5xx, none at all), a p95
// under 200 ms on both loads and every acknowledged save in the database.
func TestRushThresholds(t *testing.T) {
	ok := vegeta.Metrics{Requests: 10_000, StatusCodes: map[string]int{"200": 9_995, "201": 5}}
	ok.Latencies.P95 = 150 * time.Millisecond
	withCodes := func(codes map[string]int) vegeta.Metrics { m := ok; m.StatusCodes = codes; return m }
	slow := ok
	slow.Latencies.P95 = 200 * time.Millisecond
	live := rushLive{Streams: 2, ToEvent: []time.Duration{time.Second, 3 * time.Second}, SignUps: []time.Duration{600 * time.Millisecond}}

	for name, c := range map[string]struct {
		saves  vegeta.Metrics
		failed uint64
		met    bool
	}{
		"all answered":        {ok, 0, true},
		"9 refused in 10,000": {withCodes(map[string]int{"200": 9_991, "429": 5, "503": 4}), 9, true},
		"10 in 10,000":        {withCodes(map[string]int{"200": 9_990, "0": 6, "500": 4}), 10, false},
		"3xx is no failure":   {withCodes(map[string]int{"200": 9_000, "304": 1_000}), 0, true},
		"p95 at 200 ms":       {slow, 0, false},
		"nothing sent":        {vegeta.Metrics{}, 0, false},
	} {
		if got := failed(c.saves); got != c.failed {
			t.Errorf("%s: %d failed, want %d", name, got, c.failed)
		}
		if got := (rushFigures{Saves: c.saves, Standings: ok, Live: live}).Met(); got != c.met {
			t.Errorf("%s: met %v, want %v", name, got, c.met)
		}
	}
	// A save acknowledged but not in the database fails the rush; one stored whose answer was
	// lost does not.
	if (rushFigures{Saves: ok, Standings: ok, Live: live, Acknowledged: 10_000, Stored: 9_999}).Met() {
		t.Error("a lost save passed")
	}
	if !(rushFigures{Saves: ok, Standings: ok, Live: live, Acknowledged: 9_999, Stored: 10_000}).Met() {
		t.Error("a save stored without its answer failed")
	}
	// The live standings: every stream must hear the result, and every newcomer be listed
	// within 2 s.
	for name, l := range map[string]rushLive{
		"a stream that never heard":   {Streams: 3, ToEvent: live.ToEvent, SignUps: live.SignUps},
		"a newcomer listed after 2 s": {Streams: 2, ToEvent: live.ToEvent, SignUps: []time.Duration{time.Second, 2 * time.Second}},
		"a newcomer never listed":     {Streams: 2, ToEvent: live.ToEvent, SignUps: live.SignUps, Missing: 1},
		"no sign-up measured":         {Streams: 2, ToEvent: live.ToEvent},
	} {
		if (rushFigures{Saves: ok, Standings: ok, Live: l}).Met() {
			t.Errorf("%s: the rush passed", name)
		}
	}
}
