package http

import (
	"github.com/prometheus/client_golang/prometheus"

	"prode/platform/metrics"
	"prode/predictions/internal/bonus"
	"prode/predictions/internal/predictions"
)

// Metrics are the predictions service's business metrics, all of them (HTTP and runtime
// metrics are platform/metrics').
type Metrics struct {
	Saved   *prometheus.CounterVec // by kind: created, updated
	Refused *prometheus.CounterVec // by reason (predictions.Reasons)
}

// NewMetrics registers them on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	return &Metrics{
		Saved: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_predictions_saved_total",
			Help: "Predictions saved, by kind (created or updated)."}, "kind", "created", "updated"),
		Refused: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_predictions_refused_total",
			Help: "Prediction writes refused, by reason."}, "reason", predictions.Reasons...),
	}
}

// AnswerMetrics count the bonus questions' answers written and refused.
type AnswerMetrics struct {
	Saved   *prometheus.CounterVec // by kind: created, updated
	Refused *prometheus.CounterVec // by reason (bonus.Reasons)
}

// NewAnswerMetrics registers them on reg.
func NewAnswerMetrics(reg prometheus.Registerer) *AnswerMetrics {
	return &AnswerMetrics{
		Saved: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_predictions_answers_saved_total",
			Help: "Bonus questions' answers saved, by kind (created or updated)."}, "kind", "created", "updated"),
		Refused: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_predictions_answers_refused_total",
			Help: "Bonus questions' answers refused, by reason."}, "reason", bonus.Reasons...),
	}
}
