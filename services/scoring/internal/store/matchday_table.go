package store

import (
	"context"
	"slices"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
)

// MatchdayTable is a matchday's own table (the players who scored on one date, ranked as
// MatchdayPage ranks them) read once and kept in the process, so that each board of it is a
// few lookups in memory instead of ranking the whole day in PostgreSQL. It holds only each
// row's player, 8 bytes a row (16 MB for a day on which 2 million players scored): the rows
// come in runs of equal points, exact hits and right outcomes, a run's players in id order
// (the table's last tie-break), so a run's numbers are kept once and a player is found by a
// binary search in each run.
type MatchdayTable struct {
	store     *StandingsStore
	jugadores []int64    // in the table's order: fila f is jugadores[f-1]
	tramos    []tramoDia // the runs, in the table's order
}

// tramoDia is a run of a matchday's table: the rows from fila desde+1 on with the same numbers.
type tramoDia struct {
	desde                      int
	posicion                   int64 // competition rank by points: 1 + the rows with more points
	puntaje, exactos, aciertos int64
}

// MatchdayTableAt reads matchday fecha of tournament torneo as snapshot tabla has it: in one
// read-only transaction that first checks that the points rows, which move the matchday totals,
// count what the snapshot counts (RowsAgree). ok is false while they do not (a carried result
// whose rows are still being written): the day's totals are then an earlier table's.
func (s *StandingsStore) MatchdayTableAt(ctx context.Context, torneo, tabla int64, zone string, fecha time.Time) (
	t *MatchdayTable, ok bool, err error) {
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if ok, err = rowsAgreeIn(ctx, tx, torneo, tabla, zone); err != nil || !ok {
			return err
		}
		// The order of totales_fecha_orden: an index-only read of the day's entries.
		rows, err := tx.Query(ctx, `
			SELECT jugador_id, puntaje, exactos, aciertos
			  FROM scoring.totales_fecha
			 WHERE torneo_id = $1 AND fecha = $2 AND puntaje > 0
			 ORDER BY puntaje DESC, exactos DESC, aciertos DESC, jugador_id`, torneo, fecha)
		if err != nil {
			return err
		}
		t = &MatchdayTable{store: s}
		var jugador, puntaje, exactos, aciertos int64
		_, err = pgx.ForEachRow(rows, []any{&jugador, &puntaje, &exactos, &aciertos}, func() error {
			t.add(jugador, puntaje, exactos, aciertos)
			return nil
		})
		return err
	})
	if err != nil || !ok {
		return nil, false, err
	}
	return t, true, nil
}

// add appends the next row in the table's order.
func (t *MatchdayTable) add(jugador, puntaje, exactos, aciertos int64) {
	n := len(t.tramos)
	if n == 0 || t.tramos[n-1].puntaje != puntaje || t.tramos[n-1].exactos != exactos || t.tramos[n-1].aciertos != aciertos {
		posicion := int64(len(t.jugadores)) + 1
		if n > 0 && t.tramos[n-1].puntaje == puntaje {
			posicion = t.tramos[n-1].posicion
		}
		t.tramos = append(t.tramos, tramoDia{desde: len(t.jugadores), posicion: posicion, puntaje: puntaje,
			exactos: exactos, aciertos: aciertos})
	}
	t.jugadores = append(t.jugadores, jugador)
}

// Len is the table's number of rows.
func (t *MatchdayTable) Len() int64 { return int64(len(t.jugadores)) }

// hasta is where run i ends (exclusive).
func (t *MatchdayTable) hasta(i int) int {
	if i+1 < len(t.tramos) {
		return t.tramos[i+1].desde
	}
	return len(t.jugadores)
}

// Locate finds the given players' filas, and counts the table's rows; a player who did not
// score that day is left out.
func (t *MatchdayTable) Locate(ids []int64) (total int64, filas map[int64]int64) {
	filas = make(map[int64]int64, len(ids))
	for _, id := range ids {
		for i, r := range t.tramos {
			if n, found := slices.BinarySearch(t.jugadores[r.desde:t.hasta(i)], id); found {
				filas[id] = int64(r.desde+n) + 1
				break
			}
		}
	}
	return t.Len(), filas
}

// Rows reads the rows at the given filas (sorted, no repeats), in order, with the players'
// names (one query); a fila outside the table, or a player without a published name, is left
// out.
func (t *MatchdayTable) Rows(ctx context.Context, filas []int64) ([]Fila, error) {
	ids := make([]int64, 0, len(filas))
	for _, f := range filas {
		if f >= 1 && f <= t.Len() {
			ids = append(ids, t.jugadores[f-1])
		}
	}
	names, err := t.store.names(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Fila, 0, len(ids))
	for _, f := range filas {
		if f < 1 || f > t.Len() {
			continue
		}
		id := t.jugadores[f-1]
		nombre, ok := names[id]
		if !ok {
			continue
		}
		r := t.tramos[sort.Search(len(t.tramos), func(i int) bool { return int64(t.tramos[i].desde) >= f })-1]
		out = append(out, Fila{Fila: f, Posicion: Posicion{Posicion: r.posicion, ID: id, Nombre: nombre,
			Puntaje: r.puntaje, Exactos: r.exactos, Aciertos: r.aciertos}})
	}
	return out, nil
}
