package http

import (
	"github.com/prometheus/client_golang/prometheus"

	"prode/platform/metrics"
	"prode/predictions/internal/bonus"
	"prode/predictions/internal/predictions"
)

// Metrics count one kind of the service's writes, predictions or bonus questions' answers:
// saved, by kind, and refused, by reason. With the HTTP and runtime metrics (platform/metrics')
// they are the service's business metrics.
type Metrics struct {
	Saved   *prometheus.CounterVec // by kind: created, updated
	Refused *prometheus.CounterVec // by reason (predictions.Reasons, bonus.Reasons)
}

// NewMetrics registers the predictions' on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	return newMetrics(reg, "prode_predictions_saved_total", "prode_predictions_refused_total",
		"Predictions", "Prediction writes", predictions.Reasons)
}

// NewAnswerMetrics registers the bonus questions' answers' on reg.
func NewAnswerMetrics(reg prometheus.Registerer) *Metrics {
	return newMetrics(reg, "prode_predictions_answers_saved_total", "prode_predictions_answers_refused_total",
		"Bonus questions' answers", "Bonus questions' answers", bonus.Reasons)
}

// newMetrics registers the counters named saved and refused; their help says what was saved
// and what was refused.
func newMetrics(reg prometheus.Registerer, saved, refused, savedWhat, refusedWhat string, reasons []string) *Metrics {
	r := metrics.On(reg)
	return &Metrics{
		Saved:   r.Counters(saved, metrics.By("kind", "created", "updated"), savedWhat+" saved, by kind (created or updated)."),
		Refused: r.Counters(refused, metrics.By("reason", reasons...), refusedWhat+" refused, by reason."),
	}
}

// NewSaveBatchRows registers the histogram of how many saves each statement of predictions
// wrote (store.Batched): 1 when saves come one at a time, more under a rush.
func NewSaveBatchRows(reg prometheus.Registerer) func(rows int) {
	h := metrics.On(reg).Histogram("prode_predictions_save_batch_rows",
		"Saves of predictions written by one statement (store.Batched).", 1, 2, 4, 8, 16, 32, 64)
	return func(rows int) { h.Observe(float64(rows)) }
}
