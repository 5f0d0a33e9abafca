package http

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the players service's business metrics, all of them (HTTP and runtime metrics
// are platform/metrics').
type Metrics struct {
	SignIns *prometheus.CounterVec // by provider (google, dev) and result (ok, refused)
}

// NewMetrics registers them on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		SignIns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "prode_players_sign_ins_total", Help: "Sign-in attempts by provider and result.",
		}, []string{"provider", "result"}),
	}
	reg.MustRegister(m.SignIns)
	return m
}
