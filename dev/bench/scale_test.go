package main

import (
	"testing"
	"time"
)

func TestParseSizesReadsGrowingNumbersOfPlayers(t *testing.T) {
	sizes, err := parseSizes(" 100000  1_000_000 2000000 ")
	if err != nil || len(sizes) != 3 || sizes[0] != 100_000 || sizes[1] != 1_000_000 || sizes[2] != 2_000_000 {
		t.Fatalf("parseSizes = %v, %v", sizes, err)
	}
	for _, bad := range []string{"100000 100000", "2000 1000", "10k", "0"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q) accepted", bad)
		}
	}
	if sizes, err := parseSizes(""); err != nil || sizes != nil {
		t.Errorf(`parseSizes("") = %v, %v: the full bench runs`, sizes, err)
	}
}

// sized is a size whose result entered took d end to end.
func sized(players int, d time.Duration) scaleSize {
	z := scaleSize{Players: players}
	z.Entry.Subject = []time.Duration{d}
	return z
}

func TestGrowthTellsLinearFromFasterThanLinear(t *testing.T) {
	entry := func(z scaleSize) time.Duration { return medianDuration(z.Entry.Subject) }
	// 1 s fixed + 20 ms per 1,000 players: each 1,000 added cost less than the average before.
	linear := growthOf([]scaleSize{sized(100_000, 3*time.Second), sized(1_000_000, 21*time.Second), sized(2_000_000, 41*time.Second)}, entry)
	if w := linear.Worst(); w > 1 {
		t.Errorf("a linear cost: worst marginal %.2f of the average, want ≤ 1 (%+v)", w, linear)
	}
	if got := missedBy(linear.Worst() / linearSlack); got != "reached" {
		t.Errorf("a linear cost is %q", got)
	}
	// n²: 10 times the players, 100 times the time.
	quadratic := growthOf([]scaleSize{sized(100_000, time.Second), sized(1_000_000, 100*time.Second)}, entry)
	// 99 s for 900 thousand added (110 ms per 1,000) against 10 ms per 1,000 on average before.
	if w := quadratic.Worst(); w < 10.9 || w > 11.1 {
		t.Errorf("a quadratic cost: worst marginal %.2f of the average, want 11", w)
	}
	if got := missedBy(quadratic.Worst() / linearSlack); got == "reached" {
		t.Errorf("a quadratic cost is %q", got)
	}
}

func TestReportNumbersReadAsTheIssueWritesThem(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 2_000_000: "2,000,000", 123456: "123,456"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
	if got := missedBy(10.44); got != "**missed** by 10.4×" {
		t.Errorf("missedBy = %q", got)
	}
	if got := byteSize(58 << 30); got != "58.0 GiB" {
		t.Errorf("byteSize = %q", got)
	}
}
