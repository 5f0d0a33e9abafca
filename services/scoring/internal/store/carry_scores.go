package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"prode/scoring/internal/ranked"
)

// maxGoals is the most goals a prediction can give a team (predictions 000001: 0 to 99).
const maxGoals = 99

// scoreDelta is what a prediction of one score moves in its player's total when its match's
// counted score changes: points, exact hits and right outcomes.
type scoreDelta struct{ puntos, exactos, aciertos int32 }

// deltaGrid is a match's scoreDelta for every score a prediction can name, [home][away].
type deltaGrid [maxGoals + 1][maxGoals + 1]scoreDelta

// scoreDeltas selects, for each of matches $1 and each score a prediction can name (0 to $6
// goals a team), its points at the score that counts now (countedScores, knock-out setting $2)
// less its points at the score the newest snapshot counts ($3, $4, $5: the matches, home and
// away goals), and the same for exact hits and right outcomes; only the scores whose
// prediction moves something. Points stay scoring.puntos_de's, computed here once per score
// instead of once per prediction, which made the read of a match's two million predictions
// about five times as long as reading them alone (docs/benchmarks.md, "Toward 2 million
// players").
const scoreDeltas = `
	WITH c AS (` + countedScores + `),
	     antes AS (SELECT * FROM unnest($3::bigint[], $4::integer[], $5::integer[]) AS b(partido_id, local, visitante)),
	     d AS (
	       SELECT m.partido_id, l, v,
	              coalesce(scoring.puntos_de(l, v, c.local, c.visitante), 0)
	                - coalesce(scoring.puntos_de(l, v, b.local, b.visitante), 0) AS puntos,
	              coalesce((l = c.local AND v = c.visitante)::integer, 0)
	                - coalesce((l = b.local AND v = b.visitante)::integer, 0) AS exactos,
	              coalesce((sign(l - v) = sign(c.local - c.visitante))::integer, 0)
	                - coalesce((sign(l - v) = sign(b.local - b.visitante))::integer, 0) AS aciertos
	         FROM unnest($1::bigint[]) AS m(partido_id)
	        CROSS JOIN generate_series(0, $6::integer) AS gl(l)
	        CROSS JOIN generate_series(0, $6::integer) AS gv(v)
	         LEFT JOIN c ON c.partido_id = m.partido_id
	         LEFT JOIN antes b ON b.partido_id = m.partido_id)
	SELECT partido_id, l, v, puntos, exactos, aciertos FROM d
	 WHERE puntos <> 0 OR exactos <> 0 OR aciertos <> 0`

// carryPredictions selects each prediction of matches $1 (its player, match and goals) and its
// part of the match's fingerprint (scoring.huella_de), from their index in match order
// (predictions 000003: an index-only scan), not the points rows they replace: their points at
// the counted score are the rows' when the fingerprint summed from this read is the rows'
// (checked after it, and undone by rowsInsteadOfPredictions where it is not). The fingerprint
// rides along rather than being read again by a query of its own.
const carryPredictions = `
	SELECT a.jugador_id, a.partido_id, a.goles_local, a.goles_visitante,
	       scoring.huella_de(a.jugador_id, a.goles_local, a.goles_visitante)
	  FROM predictions.apuestas_publicadas a
	 WHERE a.partido_id = ANY($1)`

// readScoreDeltas reads scoreDeltas into a grid per match of partidos: their points under
// criterio (countedScores' knock-out setting) less their points at scores antes (the matches,
// home and away goals) in the newest snapshot.
func readScoreDeltas(ctx context.Context, tx pgx.Tx, partidos []int64, criterio string,
	antes []int64, local, visitante []int32) (map[int64]*deltaGrid, error) {
	grids := make(map[int64]*deltaGrid, len(partidos))
	for _, id := range partidos {
		grids[id] = new(deltaGrid)
	}
	rows, err := tx.Query(ctx, scoreDeltas, partidos, criterio, antes, local, visitante, maxGoals)
	if err != nil {
		return nil, err
	}
	var partido int64
	var l, v int32
	var d scoreDelta
	_, err = pgx.ForEachRow(rows, []any{&partido, &l, &v, &d.puntos, &d.exactos, &d.aciertos}, func() error {
		grid, ok := grids[partido]
		if !ok {
			return fmt.Errorf("score deltas of match %d, not carried", partido)
		}
		grid[l][v] = d
		return nil
	})
	return grids, err
}

// addPredictionDeltas adds to totals what each prediction of partidos moves (its score's delta
// in grids; into DelDia too when its match is one of delDia, those of the last matchday) and
// sums each match's fingerprint (0: no predictions). known is false when a prediction's player
// has no total.
func addPredictionDeltas(ctx context.Context, tx pgx.Tx, totals []ranked.Total, partidos, delDia []int64,
	grids map[int64]*deltaGrid) (huellas map[int64]int64, known bool, err error) {
	huellas = make(map[int64]int64, len(partidos))
	for _, id := range partidos {
		huellas[id] = 0
	}
	rows, err := tx.Query(ctx, carryPredictions, partidos)
	if err != nil {
		return nil, false, err
	}
	var jugador, partido, huella int64
	var local, visitante int16
	// The index-only scan gives the rows in match order, so a match's grid and matchday are
	// looked up once per run of its rows (once per match); any other order is only slower.
	var grid *deltaGrid
	var gridOf int64
	var ofLastDay bool
	known = true
	_, err = pgx.ForEachRow(rows, []any{&jugador, &partido, &local, &visitante, &huella}, func() error {
		if grid == nil || gridOf != partido {
			grid, gridOf, ofLastDay = grids[partido], partido, slices.Contains(delDia, partido)
		}
		if grid == nil || local < 0 || local > maxGoals || visitante < 0 || visitante > maxGoals {
			return fmt.Errorf("prediction %d-%d of match %d: no points for it", local, visitante, partido)
		}
		d := grid[local][visitante]
		t := ranked.Total{Jugador: jugador, Puntaje: d.puntos, Exactos: d.exactos, Aciertos: d.aciertos}
		if ofLastDay {
			t.DelDia = d.puntos
		}
		known = known && addDelta(totals, t)
		huellas[partido] = addHuella(huellas[partido], huella)
		return nil
	})
	return huellas, known, err
}
