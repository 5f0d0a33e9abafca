package scoringtest

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Key is a (match, player) pair.
type Key struct{ Partido, Jugador int64 }

// Row is one player's points for one match, or their totals.
type Row struct {
	Puntos, Exactos, Aciertos int
}

// StoredPoints reads scoring.puntos.
func (e *Env) StoredPoints() map[Key]Row {
	e.t.Helper()
	var k Key
	var r Row
	return stored(e, `SELECT partido_id, jugador_id, puntos, exacto::int, acierto::int FROM scoring.puntos`,
		[]any{&k.Partido, &k.Jugador, &r.Puntos, &r.Exactos, &r.Aciertos}, func() (Key, Row) { return k, r })
}

// StoredTotals reads scoring.totales_torneo summed over tournaments, leaving out all-zero rows
// (the same as no row).
func (e *Env) StoredTotals() map[int64]Row {
	e.t.Helper()
	var id int64
	var r Row
	return stored(e, `
		SELECT jugador_id, sum(puntaje)::integer, sum(exactos)::integer, sum(aciertos)::integer
		  FROM scoring.totales_torneo GROUP BY jugador_id
		HAVING (sum(puntaje), sum(exactos), sum(aciertos)) <> (0, 0, 0)`,
		[]any{&id, &r.Puntos, &r.Exactos, &r.Aciertos}, func() (int64, Row) { return id, r })
}

// stored reads the rows of query into a map: each row is scanned into scan, whose variables
// entry then turns into the row's key and value.
func stored[K comparable, V any](e *Env, query string, scan []any, entry func() (K, V)) map[K]V {
	e.t.Helper()
	rows, err := e.Admin.Query(context.Background(), query)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[K]V{}
	_, err = pgx.ForEachRow(rows, scan, func() error {
		k, v := entry()
		out[k] = v
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// Totals adds up points per player, leaving out all-zero rows as StoredTotals does: the
// totals a recomputation from scratch gives.
func Totals(points map[Key]Row) map[int64]Row {
	out := map[int64]Row{}
	for k, r := range points {
		t := out[k.Jugador]
		t.Puntos += r.Puntos
		t.Exactos += r.Exactos
		t.Aciertos += r.Aciertos
		out[k.Jugador] = t
	}
	for id, r := range out {
		if r == (Row{}) {
			delete(out, id)
		}
	}
	return out
}
