package store

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// UpToDate returns tournament torneo's newest snapshot and true when it is the table Build
// would rank now: the same players with the same totals, counting the same scores on the same
// last matchday, dated in the same zone. A process that starts keeps such a snapshot instead of
// ranking it again: every new snapshot is announced to every open page, which then reads the
// table anew, so a rolling update or an autoscaler adding scoring pods would otherwise send
// every watcher back to the standings once per pod. It costs one read of the totals, as a build
// does, and writes nothing.
func (s *StandingsStore) UpToDate(ctx context.Context, torneo int64, actual bool, zone string) (Tabla, bool, error) {
	var newest Tabla
	upToDate := false
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		base, contados, fecha, err := newestSnapshot(ctx, tx, torneo)
		if err != nil || contados == nil {
			return err // none, or the previous release's (what it counts is not recorded)
		}
		r, err := readRanking(ctx, tx, torneo, actual, zone)
		if err != nil {
			return err
		}
		if r.jugadoresHasta != base.JugadoresHasta || !contados.same(r.contados) || !sameDay(fecha, r.last) {
			return nil
		}
		table, err := s.table(ctx, base.ID)
		if err != nil {
			return err
		}
		newest, upToDate = base, table.Holds(r.totals, r.several)
		return nil
	})
	if err != nil || !upToDate {
		return Tabla{}, false, err
	}
	return newest, true, nil
}

// same reports whether two snapshots count the same scores, from the same predictions where
// both know their fingerprint, dated in the same zone.
func (c Contados) same(o Contados) bool {
	for id, huella := range c.Huellas {
		if other, known := o.Huellas[id]; known && other != huella {
			return false
		}
	}
	return c.Zona == o.Zona && maps.Equal(c.Marcadores, o.Marcadores) && slices.Equal(c.Desconocidos, o.Desconocidos)
}

// sameDay reports whether two last matchdays are the same (nil: none).
func sameDay(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// RowsAgree reports whether the points rows count what snapshot tabla of tournament torneo
// counts, every match whose rows' score is known: what is read from the totals those rows move
// (a matchday's table, its winners) is then that snapshot's. A carried result (CarryAhead) is
// a snapshot ahead of its rows until its scorer writes them; a snapshot no longer kept is not
// known to agree.
func (s *StandingsStore) RowsAgree(ctx context.Context, torneo, tabla int64, zone string) (bool, error) {
	agree := false
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		agree, err = rowsAgreeIn(ctx, tx, torneo, tabla, zone)
		return err
	})
	return agree, err
}

// rowsAgreeIn is RowsAgree in tx, a repeatable-read transaction whose further reads of the
// totals are then that snapshot's.
func rowsAgreeIn(ctx context.Context, tx pgx.Tx, torneo, tabla int64, zone string) (bool, error) {
	var contados *Contados
	err := tx.QueryRow(ctx, `SELECT contados FROM scoring.tablas_compactas WHERE id = $1 AND torneo_id = $2`,
		tabla, torneo).Scan(&contados)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil || contados == nil {
		// The previous release's snapshots do not record what they count; they were all ranked
		// from the totals, after the rows.
		return err == nil, err
	}
	states, err := readMatchStates(ctx, tx, torneo, zone)
	if err != nil {
		return false, err
	}
	for _, p := range states {
		if !p.Conocido || slices.Contains(contados.Desconocidos, p.ID) {
			continue
		}
		if !contados.countsRowsOf(p) {
			return false, nil
		}
	}
	return true, nil
}
