package metrics

import "github.com/prometheus/client_golang/prometheus"

// LatencyBuckets are the histogram buckets of every duration the services measure, in
// seconds: from a cached page (1 ms) to a slow scoring transaction (5 s).
var LatencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// Registrar makes a service's business metrics (each service declares its own in one
// metrics.go) and registers them on the service's registry, each from its name and help, so
// that every one is registered, and every labelled series exported, the same way.
type Registrar struct {
	reg prometheus.Registerer
}

// On makes the business metrics registered on reg.
func On(reg prometheus.Registerer) Registrar { return Registrar{reg: reg} }

// Counter registers a counter.
func (r Registrar) Counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	r.reg.MustRegister(c)
	return c
}

// Label is the one label of a counter and every value it takes.
type Label struct {
	name   string
	values []string
}

// By names a label and its values.
func By(name string, values ...string) Label { return Label{name: name, values: values} }

// Counters registers a counter by one label, with the series of each of its values exported
// from the start: dashboards and alerts see zeros, not gaps.
func (r Registrar) Counters(name string, by Label, help string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{by.name})
	r.reg.MustRegister(c)
	for _, v := range by.values {
		c.WithLabelValues(v)
	}
	return c
}

// Gauge registers a gauge.
func (r Registrar) Gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	r.reg.MustRegister(g)
	return g
}

// Histogram registers a histogram in buckets, LatencyBuckets when none are given (a duration).
func (r Registrar) Histogram(name, help string, buckets ...float64) prometheus.Histogram {
	if len(buckets) == 0 {
		buckets = LatencyBuckets
	}
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets})
	r.reg.MustRegister(h)
	return h
}
