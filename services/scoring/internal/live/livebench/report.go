package main

import (
	"fmt"
	"strings"
)

type report struct {
	Classic       bool    `json:"classic"` // the comparison server, not the hub
	Streams       int     `json:"streams"`
	OpenSeconds   float64 `json:"open_seconds"`
	RSSBeforeMiB  float64 `json:"rss_before_mib"`
	RSSAfterMiB   float64 `json:"rss_after_mib"`
	RSSPeakMiB    float64 `json:"rss_peak_mib"`
	HeapBeforeMiB float64 `json:"heap_before_mib"`
	HeapAfterMiB  float64 `json:"heap_after_mib"`
	Goroutines    [2]int  `json:"goroutines"` // before, after
	KernelSlabMiB float64 `json:"kernel_slab_mib"`
	// Per stream, bytes.
	RSSPerStream  float64 `json:"rss_per_stream"`
	HeapPerStream float64 `json:"heap_per_stream"`
	// StreamsIn64MiB is how many streams 64 MiB of resident memory holds at RSSPerStream.
	StreamsIn64MiB int `json:"streams_in_64mib"`

	Announces    int     `json:"announces"`
	Delivered    int     `json:"delivered"` // events received, of Announces × Streams
	LatencyP50ms float64 `json:"latency_p50_ms"`
	LatencyP95ms float64 `json:"latency_p95_ms"`
	LatencyMaxms float64 `json:"latency_max_ms"`
	// LastP50ms is the median, over announces, of the time until the last stream had it.
	LastP50ms float64 `json:"last_p50_ms"`
	// CPUPerBroadcastms is the server's CPU time (user + system) per announce.
	CPUPerBroadcastms float64 `json:"cpu_per_broadcast_ms"`

	ShutdownSeconds float64 `json:"shutdown_seconds"` // SIGTERM until every stream ended
	Dropped         int64   `json:"dropped"`          // streams that ended before the shutdown
}

func (r *report) text() string {
	var b strings.Builder
	if r.Classic {
		b.WriteString("COMPARISON: a goroutine and net/http's buffers per stream, not the hub\n")
	}
	fmt.Fprintf(&b, "streams                %d, opened in %.1f s\n", r.Streams, r.OpenSeconds)
	fmt.Fprintf(&b, "server RSS             %.1f -> %.1f MiB (peak %.1f): %.0f bytes per stream -> %d streams in 64 MiB\n",
		r.RSSBeforeMiB, r.RSSAfterMiB, r.RSSPeakMiB, r.RSSPerStream, r.StreamsIn64MiB)
	fmt.Fprintf(&b, "server Go heap+stacks  %.1f -> %.1f MiB after GC: %.0f bytes per stream; goroutines %d -> %d\n",
		r.HeapBeforeMiB, r.HeapAfterMiB, r.HeapPerStream, r.Goroutines[0], r.Goroutines[1])
	fmt.Fprintf(&b, "kernel slab (machine)  +%.1f MiB for both ends of the %d connections (not in RSS)\n", r.KernelSlabMiB, r.Streams)
	fmt.Fprintf(&b, "announce -> client     p50 %.1f ms, p95 %.1f ms, max %.1f ms; last stream p50 %.1f ms (%d of %d delivered)\n",
		r.LatencyP50ms, r.LatencyP95ms, r.LatencyMaxms, r.LastP50ms, r.Delivered, r.Announces*r.Streams)
	fmt.Fprintf(&b, "server CPU             %.1f ms per broadcast to %d streams\n", r.CPUPerBroadcastms, r.Streams)
	fmt.Fprintf(&b, "SIGTERM                every stream closed in %.2f s; %d ended early\n", r.ShutdownSeconds, r.Dropped)
	return b.String()
}
