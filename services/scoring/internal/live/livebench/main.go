// Command livebench measures the live hub at scale: how much memory N open event streams
// (GET /api/eventos) cost one replica, and how long an announced event takes to reach all of
// them. It starts a scoring-like server as a second process (itself with -serve: the shared
// middleware of httpserver, scoring's runtime settings, a live.Hub with the handler's
// reserve-hijack-adopt), opens N streams to it from this process, and reports the server's
// resident memory and Go heap before and after, the time from Announce to each client (median,
// p95, max), the server's CPU per broadcast, and how fast SIGTERM closes every stream.
//
//	cd services/scoring && go run ./internal/live/livebench -streams 10000
//
// Both processes need a file descriptor per stream: raise `ulimit -n` first (Go raises the soft
// limit to the hard one by itself). -redis (default $PRODE_TEST_REDIS_URL) makes Announce
// publish too, as in production; without it the hub runs alone.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"time"
)

func main() {
	serve := flag.Bool("serve", false, "run the scoring-like server (the benchmark starts it)")
	classic := flag.Bool("classic", false, "compare: a server that keeps each stream in its handler (a goroutine and net/http's buffers per stream) instead of the hub")
	streams := flag.Int("streams", 10_000, "event streams to open")
	announces := flag.Int("announces", 20, "events to announce once the streams are open")
	interval := flag.Duration("interval", 250*time.Millisecond, "pause between announces")
	settle := flag.Duration("settle", 3*time.Second, "wait after opening the streams before measuring memory")
	dialers := flag.Int("dialers", 64, "streams opened at once")
	redisURL := flag.String("redis", os.Getenv("PRODE_TEST_REDIS_URL"), "Redis URL for the hub (empty: none)")
	jsonOut := flag.String("json", "", "also write the figures as JSON to this file")
	flag.Parse()
	log.SetFlags(log.Ltime)
	log.SetPrefix("livebench: ")
	if *serve {
		if err := runServer(*redisURL, *classic); err != nil {
			log.Fatal(err)
		}
		return
	}
	r, err := bench(*streams, *announces, *interval, *settle, *dialers, *redisURL, *classic)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(r.text())
	if *jsonOut != "" {
		raw, _ := json.MarshalIndent(r, "", "  ")
		if err := os.WriteFile(*jsonOut, append(raw, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// --- the server (child process) ---------------------------------------------------------

// --- the benchmark (parent process) -----------------------------------------------------
