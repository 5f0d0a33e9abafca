package metrics

import "github.com/prometheus/client_golang/prometheus"

// The constructors below make and register a service's business metrics (each service
// declares its own in one metrics.go), so that every one is registered, and every labelled
// series exported, the same way.

// LatencyBuckets are the histogram buckets of every duration the services measure, in
// seconds: from a cached page (1 ms) to a slow scoring transaction (5 s).
var LatencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// Counter registers a counter on reg.
func Counter(reg prometheus.Registerer, opts prometheus.CounterOpts) prometheus.Counter {
	c := prometheus.NewCounter(opts)
	reg.MustRegister(c)
	return c
}

// Counters registers a counter by one label on reg, with the series of each of values exported
// from the start: dashboards and alerts see zeros, not gaps.
func Counters(reg prometheus.Registerer, opts prometheus.CounterOpts, label string, values ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(opts, []string{label})
	reg.MustRegister(c)
	for _, v := range values {
		c.WithLabelValues(v)
	}
	return c
}

// Gauge registers a gauge on reg.
func Gauge(reg prometheus.Registerer, opts prometheus.GaugeOpts) prometheus.Gauge {
	g := prometheus.NewGauge(opts)
	reg.MustRegister(g)
	return g
}

// Histogram registers a histogram of durations on reg, in LatencyBuckets unless opts says.
func Histogram(reg prometheus.Registerer, opts prometheus.HistogramOpts) prometheus.Histogram {
	if opts.Buckets == nil {
		opts.Buckets = LatencyBuckets
	}
	h := prometheus.NewHistogram(opts)
	reg.MustRegister(h)
	return h
}
