// Package metrics holds a service's Prometheus registry and the HTTP metrics every service
// exports; services register their business metrics on the same registry.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// HTTP are the request metrics recorded by the server middleware.
type HTTP struct {
	Requests *prometheus.CounterVec
	Duration *prometheus.HistogramVec
	InFlight prometheus.Gauge
}

// New returns a registry with the Go and process collectors and the HTTP metrics.
func New(service string) (*prometheus.Registry, *HTTP) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	labels := prometheus.Labels{"service": service}
	h := &HTTP{
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "prode_http_requests_total", Help: "HTTP requests answered, by route, method and status.", ConstLabels: labels,
		}, []string{"route", "method", "status"}),
		Duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "prode_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route, method and status.",
			ConstLabels: labels, Buckets: LatencyBuckets,
		}, []string{"route", "method", "status"}),
		InFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "prode_http_requests_in_flight", Help: "HTTP requests being answered now.", ConstLabels: labels,
		}),
	}
	reg.MustRegister(h.Requests, h.Duration, h.InFlight)
	return reg, h
}
