package main

import (
	"strings"
	"testing"
)

func TestParseWrkReadsTheReportLine(t *testing.T) {
	out := []byte("Running 1s test @ http://x/\n  1 threads and 2 connections\n" +
		`BENCH {"requests":1500,"duration_us":500000,"p50_us":900.0,"p95_us":2000.5,"p99_us":4000.0,"status_errors":3,"socket_errors":1}` + "\n")
	r, err := parseWrk(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.RPS() != 3000 || r.P95US != 2000.5 || r.StatusErrors != 3 || r.SocketErrors != 1 {
		t.Fatalf("parsed %+v (rps %v)", r, r.RPS())
	}
	if _, err := parseWrk([]byte("wrk: connection refused\n")); err == nil {
		t.Fatal("output without a report line must be an error")
	}
}

func TestSummariseTakesMediansAndAddsErrors(t *testing.T) {
	f := summarise([]wrkReport{
		{Requests: 100, DurationUS: 1e6, P99US: 1000, StatusErrors: 1},
		{Requests: 300, DurationUS: 1e6, P99US: 3000},
		{Requests: 200, DurationUS: 1e6, P99US: 2000, SocketErrors: 2},
	})
	if f.RPS != 200 || f.P99MS != 2 || f.Errors != 3 || f.Requests != 600 {
		t.Fatalf("summary %+v", f)
	}
}

func TestMedianOfEvenCount(t *testing.T) {
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Fatalf("median %v", m)
	}
}

// A cookie is a fixed header: wrk then builds the request once, as for a public GET, and no
// request() function slows it down for the service or for nginx.
func TestCookieIsAFixedHeader(t *testing.T) {
	s := wrkRun{Cookie: "prode_session=abc.def"}.script()
	if !strings.HasPrefix(s, `wrk.headers["Cookie"] = "prode_session=abc.def"`+"\n") || strings.Contains(s, "request =") {
		t.Fatalf("script:\n%s", s)
	}
	if strings.Contains(wrkRun{}.script(), "Cookie") {
		t.Fatal("a run without a cookie sends one")
	}
}
