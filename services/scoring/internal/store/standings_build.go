package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"prode/platform/events"
	"prode/scoring/internal/ranked"
)

// buildTotals reads what a tournament's players have, to be ranked into a snapshot (ranked.Rank):
// for the current tournament ($4) every player registered up to $2, for another one those who
// have points in it (who played it, a match or a bonus question), in player order. puntaje
// includes the bonus points, bonus is that part of it; del_dia is the points of the last
// matchday (the kick-off dates, in zone $3, of the finished matches), which the previous rank
// leaves out.
const buildTotals = `
	WITH fechas AS (
	    SELECT id, (inicio AT TIME ZONE $3)::date AS fecha
	      FROM fixtures.partidos_publicados
	     WHERE torneo_id = $1 AND finalizado
	), del_dia AS (
	    SELECT jugador_id, puntaje AS puntos
	      FROM scoring.totales_fecha
	     WHERE torneo_id = $1 AND fecha = (SELECT max(fecha) FROM fechas)
	)
	SELECT j.id, coalesce(t.puntaje, 0), coalesce(t.exactos, 0), coalesce(t.aciertos, 0),
	       coalesce(t.bonus, 0), coalesce(d.puntos, 0)
	  FROM players.jugadores_publicados j
	  LEFT JOIN scoring.totales_torneo t ON t.torneo_id = $1 AND t.jugador_id = j.id
	  LEFT JOIN del_dia d ON d.jugador_id = j.id
	 WHERE j.id <= $2
	   AND ($4 OR EXISTS (SELECT FROM scoring.puntos pt WHERE pt.torneo_id = $1 AND pt.jugador_id = j.id)
	           OR EXISTS (SELECT FROM scoring.puntos_bonus b WHERE b.torneo_id = $1 AND b.jugador_id = j.id))
	 ORDER BY j.id`

// Build ranks a tournament's table from the totals into a new snapshot, in one transaction that
// sees one moment of the totals and the players, and deletes the snapshots before the previous
// one (a reader may still be paging through the previous one). Builds of one tournament take
// turns (takeTurn), and wait for the points rows of the tables carried ahead of them. zone is the
// display time zone, which dates the matchdays. The ranking is done here, in memory, and
// stored as one value: the cost of a snapshot is reading the totals once.
func (s *StandingsStore) Build(ctx context.Context, torneo int64, actual bool, zone string) (Tabla, error) {
	turn, err := s.takeTurn(ctx, torneo)
	if err != nil {
		return Tabla{}, err
	}
	// The totals must hold every result the newest snapshot carried ahead of its rows.
	if err := turn.waitForRows(ctx); err != nil {
		return Tabla{}, err
	}
	defer turn.release()
	t := Tabla{Torneo: torneo}
	var table *ranked.Table
	err = pgx.BeginTxFunc(ctx, turn.conn, pgx.TxOptions{IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		r, err := readRanking(ctx, tx, torneo, actual, zone)
		if err != nil {
			return err
		}
		t.JugadoresHasta = r.jugadoresHasta
		table = ranked.Rank(r.totals, r.several)
		return insertSnapshot(ctx, tx, &t, table, r.contados, r.last)
	})
	if err == nil {
		s.snapshots.Keep(t.ID, table)
	}
	return t, err
}

// ranking is what a build ranks, read at one moment: the totals of the players up to
// jugadoresHasta (in player order), what they count and their matchdays.
type ranking struct {
	jugadoresHasta int64
	totals         []ranked.Total
	contados       Contados   // the points rows' scores, and the zone their matchdays are dated in
	last           *time.Time // the last matchday (nil: none)
	several        bool       // more than one matchday: a previous rank
}

// readRanking reads what a build of tournament torneo ranks, through tx (a repeatable read).
func readRanking(ctx context.Context, tx pgx.Tx, torneo int64, actual bool, zone string) (ranking, error) {
	var r ranking
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM players.jugadores_publicados`).Scan(&r.jugadoresHasta); err != nil {
		return r, err
	}
	states, err := readMatchStates(ctx, tx, torneo, zone)
	if err != nil {
		return r, err
	}
	// The zone the matchday totals are dated in now (scoring.estado): a start in another
	// zone dates them again (PointsStore.DateMatchdays), maybe while this build reads them.
	var dated string
	if err := tx.QueryRow(ctx, `SELECT coalesce(zona, '') FROM scoring.estado`).Scan(&dated); err != nil {
		return r, err
	}
	// The totals are the points rows' sums, read at the same moment as their scores.
	r.contados = countedBy(states, dated)
	r.last, r.several = matchdays(states)
	rows, err := tx.Query(ctx, buildTotals, torneo, r.jugadoresHasta, zone, actual)
	if err != nil {
		return r, err
	}
	// Room for every player up front: appending would copy two million totals several
	// times over and leave the copies to the garbage collector.
	r.totals = make([]ranked.Total, 0, r.jugadoresHasta)
	var x ranked.Total
	_, err = pgx.ForEachRow(rows, []any{&x.Jugador, &x.Puntaje, &x.Exactos, &x.Aciertos, &x.Bonus, &x.DelDia}, func() error {
		r.totals = append(r.totals, x)
		return nil
	})
	return r, err
}

// insertSnapshot stores table as tournament t.Torneo's newest snapshot, with what it counts and
// the matchday its previous rank leaves out, and deletes the snapshots before the previous one
// (a reader may still be paging through the previous one). It fills in t's id and counts.
func insertSnapshot(ctx context.Context, tx pgx.Tx, t *Tabla, table *ranked.Table, contados Contados, fechaDelDia *time.Time) error {
	t.Filas, t.PosicionCeros = table.Len(), table.PositionOfZeros()
	if err := tx.QueryRow(ctx, `SELECT nextval('scoring.tablas_id_seq')`).Scan(&t.ID); err != nil {
		return err
	}
	if err := writeSnapshot(ctx, tx, *t, table, contados, fechaDelDia); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `
		DELETE FROM scoring.tablas_compactas
		 WHERE torneo_id = $1
		   AND id < (SELECT max(id) FROM scoring.tablas_compactas WHERE torneo_id = $1 AND id < $2)`, t.Torneo, t.ID); err != nil {
		return err
	}
	// The leagues' readers are remembered with the snapshot they read (grupos).
	return notifyAccess(ctx, tx, events.TableChanged(t.Torneo))
}
