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
	Requests  *prometheus.CounterVec // by result: local, hit, miss, error, stale
	Snapshots *prometheus.CounterVec // by how: carried, totals
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
	// Matchdays: matchday tables the boards read, by result: kept, read, earlier, rows_behind.
	Matchdays *prometheus.CounterVec
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
	r := metrics.On(reg)
	byTabla := metrics.By("tabla", "general", "fecha", "grupo") // the boards' tables, of reads and of ranges alike
	return &Metrics{
		Scoring: Scoring{
			Duration: r.Histogram("prode_scoring_duration_seconds",
				"Time of one scoring transaction: every prediction of up to 64 matches."),
			Processed: r.Counter("prode_scoring_events_processed_total",
				"Outbox events of fixtures applied to the points."),
			Lag: r.Gauge("prode_scoring_outbox_lag_seconds",
				"Age of the oldest outbox event not applied yet; 0 when there is none."),
		},
		Standings: Standings{
			Requests: r.Counters("prode_standings_cache_requests_total", metrics.By("result", "local", "hit", "miss", "error", "stale"),
				"Standings pages asked for, by where they came from: local (the process's memory), hit (Redis), miss or error (PostgreSQL), stale (the process's memory while PostgreSQL is read again, or while it cannot be reached)."),
			Snapshots: r.Counters("prode_standings_snapshots_total", metrics.By("how", "carried", "totals"),
				"Standings snapshots this replica ranked, by how: carried (the newest one plus what a result changes, published before the points rows are written) or totals (ranked from the points totals: at start, after a bonus question, a deleted last matchday, rows another scorer wrote)."),
		},
		Grupos: Grupos{
			Created: r.Counter("prode_leagues_created_total",
				"Private leagues created."),
			Joins: r.Counter("prode_league_joins_total",
				"Players who joined a league with its invite code (not counting those already in it)."),
			Refused: r.Counters("prode_league_joins_refused_total", metrics.By("reason", "invitacion_invalida", "grupo_lleno", "demasiados_grupos", "demasiadas_solicitudes"),
				"Joins refused, by reason: invitacion_invalida (unknown or revoked code), grupo_lleno, demasiados_grupos, demasiadas_solicitudes (too many unknown codes from one session)."),
			Tables: r.Counters("prode_league_table_requests_total", metrics.By("result", "local", "hit", "miss", "error"),
				"League table pages asked for, by where they came from: local (the process's memory), hit (Redis), miss or error (PostgreSQL)."),
			Access: r.Counters("prode_league_access_checks_total", metrics.By("source", "local", "database"),
				"Checks that a league's reader is a member with an open session, by source: local (confirmed lately, and nothing heard since that could end it) or database."),
		},
		Tablero: Tablero{
			Boards: r.Counters("prode_board_reads_total", byTabla,
				"Around-me boards read, by table: general (the tournament's), fecha (a matchday's), grupo (a league's)."),
			Ranges: r.Counters("prode_board_range_reads_total", byTabla,
				"Ranges of rows read around the board (ver 10 más), by table: general, fecha, grupo."),
			Pins: r.Counters("prode_board_pin_writes_total", metrics.By("accion", "fijar", "quitar"),
				"Pins written, by action: fijar (a player pinned), quitar (unpinned)."),
			Matchdays: r.Counters("prode_board_matchday_tables_total", metrics.By("result", "kept", "read", "earlier", "rows_behind"),
				"Matchday tables the boards and ranges of a matchday used, by result: kept (in this replica's memory), read (from PostgreSQL once for the snapshot, then kept); while the points rows of a carried result are still being written, earlier (the day kept at the snapshot the rows still count) or rows_behind (none kept: the day read from PostgreSQL for that request)."),
		},
		Live: Live{
			Broadcast: r.Counters("prode_live_events_broadcast_total", metrics.By("source", "announce", "redis", "poll"),
				"Standings events broadcast to this replica's streams, by where the replica learnt of them (announce, redis, poll)."),
			Dropped: r.Counters("prode_live_streams_dropped_total", metrics.By("reason", "write", "gone"),
				"Event streams closed by the server, by reason (write: a write failed or timed out; gone: the client had closed it)."),
			Refused: r.Counter("prode_live_streams_refused_total",
				"Event streams refused because the replica held its maximum (answered 503)."),
			Open: r.Gauge("prode_live_streams_open",
				"Event streams open on this replica."),
		},
	}
}
