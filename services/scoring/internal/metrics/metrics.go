// Package metrics declares the scoring service's business metrics, all of them in one place:
// the outbox consumer's, the standings cache's, the leagues', the around-me boards' and the live event streams'. (HTTP and runtime
// metrics are platform/metrics'.) app.Wire registers them and hands each part its own.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"prode/platform/metrics"
)

// Metrics are every business metric of the service.
type Metrics struct {
	Scoring   Scoring
	Standings Standings
	Live      Live
	Grupos    Grupos
	Tablero   Tablero
}

// Scoring: the outbox consumer's work.
type Scoring struct {
	Duration  prometheus.Histogram
	Processed prometheus.Counter
	Lag       prometheus.Gauge
}

// Standings: where standings pages come from.
type Standings struct {
	Requests *prometheus.CounterVec // by result: local, hit, miss, error, stale
}

// Grupos: the private leagues.
type Grupos struct {
	Created prometheus.Counter
	Joins   prometheus.Counter
	Refused *prometheus.CounterVec // by reason: invitacion_invalida, grupo_lleno, demasiados_grupos, demasiadas_solicitudes
	Tables  *prometheus.CounterVec // by result: local, hit, miss, error
	Access  *prometheus.CounterVec // by source: local, database
}

// Tablero: the around-me boards, the rows read by range ("ver 10 más") and the pins.
type Tablero struct {
	Boards *prometheus.CounterVec // by table: general, fecha, grupo
	Ranges *prometheus.CounterVec // by table: general, fecha, grupo
	Pins   *prometheus.CounterVec // by action: fijar, quitar
}

// Live: the event streams of open pages.
type Live struct {
	Broadcast *prometheus.CounterVec // by source: announce, redis, poll
	Dropped   *prometheus.CounterVec // by reason: write, gone
	Refused   prometheus.Counter
	Open      prometheus.Gauge
}

// New registers them on reg.
func New(reg prometheus.Registerer) *Metrics {
	return &Metrics{
		Scoring: Scoring{
			Duration: metrics.Histogram(reg, prometheus.HistogramOpts{Name: "prode_scoring_duration_seconds",
				Help: "Time of one scoring transaction: every prediction of up to 64 matches."}),
			Processed: metrics.Counter(reg, prometheus.CounterOpts{Name: "prode_scoring_events_processed_total",
				Help: "Outbox events of fixtures applied to the points."}),
			Lag: metrics.Gauge(reg, prometheus.GaugeOpts{Name: "prode_scoring_outbox_lag_seconds",
				Help: "Age of the oldest outbox event not applied yet; 0 when there is none."}),
		},
		Standings: Standings{
			Requests: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_standings_cache_requests_total",
				Help: "Standings pages asked for, by where they came from: local (the process's memory), hit (Redis), miss or error (PostgreSQL), stale (the process's memory while PostgreSQL is read again)."},
				"result", "local", "hit", "miss", "error", "stale"),
		},
		Grupos: Grupos{
			Created: metrics.Counter(reg, prometheus.CounterOpts{Name: "prode_leagues_created_total",
				Help: "Private leagues created."}),
			Joins: metrics.Counter(reg, prometheus.CounterOpts{Name: "prode_league_joins_total",
				Help: "Players who joined a league with its invite code (not counting those already in it)."}),
			Refused: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_league_joins_refused_total",
				Help: "Joins refused, by reason: invitacion_invalida (unknown or revoked code), grupo_lleno, demasiados_grupos, demasiadas_solicitudes (too many unknown codes from one session)."},
				"reason", "invitacion_invalida", "grupo_lleno", "demasiados_grupos", "demasiadas_solicitudes"),
			Tables: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_league_table_requests_total",
				Help: "League table pages asked for, by where they came from: local (the process's memory), hit (Redis), miss or error (PostgreSQL)."},
				"result", "local", "hit", "miss", "error"),
			Access: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_league_access_checks_total",
				Help: "Checks that a league's reader is a member with an open session, by source: local (confirmed lately, and nothing heard since that could end it) or database."},
				"source", "local", "database"),
		},
		Tablero: Tablero{
			Boards: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_board_reads_total",
				Help: "Around-me boards read, by table: general (the tournament's), fecha (a matchday's), grupo (a league's)."},
				"tabla", "general", "fecha", "grupo"),
			Ranges: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_board_range_reads_total",
				Help: "Ranges of rows read around the board (ver 10 más), by table: general, fecha, grupo."},
				"tabla", "general", "fecha", "grupo"),
			Pins: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_board_pin_writes_total",
				Help: "Pins written, by action: fijar (a player pinned), quitar (unpinned)."},
				"accion", "fijar", "quitar"),
		},
		Live: Live{
			Broadcast: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_live_events_broadcast_total",
				Help: "Standings events broadcast to this replica's streams, by where the replica learnt of them (announce, redis, poll)."},
				"source", "announce", "redis", "poll"),
			Dropped: metrics.Counters(reg, prometheus.CounterOpts{Name: "prode_live_streams_dropped_total",
				Help: "Event streams closed by the server, by reason (write: a write failed or timed out; gone: the client had closed it)."},
				"reason", "write", "gone"),
			Refused: metrics.Counter(reg, prometheus.CounterOpts{Name: "prode_live_streams_refused_total",
				Help: "Event streams refused because the replica held its maximum (answered 503)."}),
			Open: metrics.Gauge(reg, prometheus.GaugeOpts{Name: "prode_live_streams_open",
				Help: "Event streams open on this replica."}),
		},
	}
}
