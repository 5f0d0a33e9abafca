package store

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/scoring/internal/ranked"
)

// rowsInsteadOfPredictions turns what the predictions' deltas subtracted for matches $1 (each
// prediction's points at the counted scores $3, $4) into their points rows (scoring.puntos,
// scattered over the table): for a match whose predictions changed since its rows were
// computed (a deleted result reopened betting), or whose rows' fingerprint is not recorded.
// Each row: a player, the points, exact hits and right outcomes to add, and whether they are
// of the last matchday ($2: its matches).
const rowsInsteadOfPredictions = `
	WITH antes AS (SELECT * FROM unnest($1::bigint[], $3::integer[], $4::integer[]) AS b(partido_id, local, visitante))
	SELECT a.jugador_id, scoring.puntos_de(a.goles_local, a.goles_visitante, b.local, b.visitante)::integer,
	       (a.goles_local = b.local AND a.goles_visitante = b.visitante)::integer,
	       (sign(a.goles_local - a.goles_visitante) = sign(b.local - b.visitante))::integer,
	       a.partido_id = ANY($2)
	  FROM predictions.apuestas_publicadas a
	  JOIN antes b ON b.partido_id = a.partido_id
	 WHERE a.partido_id = ANY($1)
	UNION ALL
	SELECT jugador_id, -puntos, -(exacto::integer), -(acierto::integer), partido_id = ANY($2)
	  FROM scoring.puntos WHERE partido_id = ANY($1)`

// CarryAhead takes the tournament's turn and ranks its table with the present results of
// matches partidos before their points rows are written (carry), on the turn's connection,
// then has it published (publish runs holding the turn, so that no other table comes between
// the snapshot and its announcement). Carried, it lets the turn go but keeps that connection
// holding the tournament's rows, so that every build from the totals waits for them, until the
// caller calls done once they are written (PointsStore.ScoreMatches); the next result can be
// carried meanwhile. Not carried, done is nil.
func (s *StandingsStore) CarryAhead(ctx context.Context, torneo int64, partidos []int64, criterio, zone string, inFlight []int64,
	publish func(Tabla)) (done func(), err error) {
	turn, err := s.takeTurn(ctx, torneo)
	if err != nil {
		return nil, err
	}
	// Taken before the carry commits: no build can rank the table without these rows.
	if err := turn.holdRows(ctx); err != nil {
		return nil, err
	}
	t, carried, err := s.carry(ctx, turn.conn, torneo, partidos, criterio, zone, inFlight)
	if err != nil || !carried {
		if turn.exec(ctx, `pg_advisory_unlock_shared(`+rowsLock+`)`) == nil {
			turn.release()
		}
		return nil, err
	}
	publish(t)
	return turn.handOver()
}

// carry ranks the current tournament's table with the present results of matches partidos
// before their points rows are written: the new snapshot is the newest one's totals (read from
// memory) plus what those matches change (addPredictionDeltas), ranked here. It answers false,
// writing nothing, when that would not be the table a build from the totals gives once the
// points rows are written: a newest snapshot that does not record what it counts (the
// previous release's), a match of the tournament whose points rows are not the ones that
// snapshot counted (written since by another scorer or without a snapshot, from other
// predictions, or of unknown score), a matchday that moves back (a deleted result), matchdays
// dated in another time zone, or a match of another tournament.
//
// It runs on conn, which holds the tournament's turn and the rows until they are written
// (CarryAhead), so that no build from the totals comes in between. inFlight are the matches whose
// rows the caller is still writing for the results it carried before: their rows are not compared,
// the newest snapshot's counts stand in for them (the snapshot must be the caller's, or a build
// that waited for those rows), and a carry of one whose predictions changed since that snapshot
// read them answers false.
func (s *StandingsStore) carry(ctx context.Context, conn *pgxpool.Conn, torneo int64, partidos []int64, criterio, zone string, inFlight []int64) (Tabla, bool, error) {
	t := Tabla{Torneo: torneo}
	var table *ranked.Table
	err := pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		base, contados, fechaBase, err := newestSnapshot(ctx, tx, torneo)
		if err != nil || contados == nil {
			// No snapshot yet, or the previous release's (what it counts is not recorded): the
			// table is ranked from the totals.
			return err
		}
		states, err := readMatchStates(ctx, tx, torneo, zone)
		if err != nil {
			return err
		}
		now, err := countedNow(ctx, tx, partidos, criterio)
		if err != nil {
			return err
		}
		plan, ok := planCarry(*contados, zone, states, partidos, inFlight, now, fechaBase)
		if !ok {
			return nil
		}
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM players.jugadores_publicados`).Scan(&t.JugadoresHasta); err != nil {
			return err
		}
		t.JugadoresHasta = max(t.JugadoresHasta, base.JugadoresHasta)
		totals, ok, err := s.carriedTotals(ctx, tx, base, t.JugadoresHasta, &plan, states, partidos, criterio)
		if err != nil || !ok {
			return err
		}
		table = ranked.Rank(totals, plan.several)
		return insertSnapshot(ctx, tx, &t, table, plan.contados, plan.fechaDelDia)
	})
	if err != nil || table == nil {
		return Tabla{}, false, err
	}
	s.snapshots.Keep(t.ID, table)
	return t, true, nil
}

// newestSnapshot reads the newest snapshot of a tournament: its id, last player and counts,
// what it counts (nil: not recorded) and its last matchday. No snapshot yet is a nil contados too.
func newestSnapshot(ctx context.Context, tx pgx.Tx, torneo int64) (Tabla, *Contados, *time.Time, error) {
	base := Tabla{Torneo: torneo}
	var contados *Contados
	var fecha *time.Time
	err := tx.QueryRow(ctx, `
		SELECT id, jugadores_hasta, filas, posicion_ceros, contados, fecha_del_dia FROM scoring.tablas_compactas
		 WHERE torneo_id = $1 ORDER BY id DESC LIMIT 1`, torneo).Scan(&base.ID, &base.JugadoresHasta, &base.Filas,
		&base.PosicionCeros, &contados, &fecha)
	if errors.Is(err, pgx.ErrNoRows) {
		return base, nil, nil, nil
	}
	return base, contados, fecha, err
}

// carriedTotals are the totals of snapshot base (and of the players registered since, up to
// upTo) moved to the present results of partidos as plan says, which learns the fingerprints of
// their predictions; false when a prediction's or points row's player is not among them (the
// table is then ranked from the totals).
func (s *StandingsStore) carriedTotals(ctx context.Context, tx pgx.Tx, base Tabla, upTo int64, plan *carryPlan,
	states []partidoState, partidos []int64, criterio string) ([]ranked.Total, bool, error) {
	previous, err := s.table(ctx, base.ID)
	if err != nil {
		return nil, false, err
	}
	nuevos, err := newcomersOf(ctx, tx, previous, base, upTo)
	if err != nil {
		return nil, false, err
	}
	totals := withNewcomers(previous.Totals(), nuevos)
	if plan.newMatchday {
		for i := range totals {
			totals[i].DelDia = 0
		}
	}
	// A nil list would make rowsInsteadOfPredictions' "partido_id = ANY($2)" NULL rather than false.
	delDia := append([]int64{}, plan.delDia...)
	antes, local, visitante := scoresOf(plan.antes, slices.Collect(maps.Keys(plan.antes)))
	grids, err := readScoreDeltas(ctx, tx, partidos, criterio, antes, local, visitante)
	if err != nil {
		return nil, false, err
	}
	huellas, known, err := addPredictionDeltas(ctx, tx, totals, partidos, delDia, grids)
	if err != nil || !known {
		return totals, known, err
	}
	rowsOf, ok := plan.check(states, partidos, huellas)
	if !ok {
		return totals, false, nil
	}
	if len(rowsOf) == 0 {
		return totals, true, nil
	}
	antes, local, visitante = scoresOf(plan.antes, rowsOf)
	known, err = addDeltas(ctx, tx, totals, rowsInsteadOfPredictions, antes, delDia, local, visitante)
	return totals, known, err
}

// scoresOf lists matches partidos with their scores in scores, as arrays for unnest.
func scoresOf(scores map[int64]Marcador, partidos []int64) (ids []int64, local, visitante []int32) {
	ids, local, visitante = []int64{}, []int32{}, []int32{}
	for _, id := range partidos {
		m := scores[id]
		ids, local, visitante = append(ids, id), append(local, int32(m[0])), append(visitante, int32(m[1]))
	}
	return ids, local, visitante
}

// addDeltas adds to totals each row of query (a player, the points, exact hits and right
// outcomes to add, and whether they are of the last matchday). known is false when a row's
// player has no total. The rows are summed per player here: a GROUP BY of two million players
// spilled to disk at the usual work_mem and took 22 s against the 12.5 s of the read alone
// (docs/benchmarks.md, "Toward 2 million players").
func addDeltas(ctx context.Context, tx pgx.Tx, totals []ranked.Total, query string, args ...any) (known bool, err error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return false, err
	}
	var d ranked.Total
	var ofTheDay bool
	known = true
	_, err = pgx.ForEachRow(rows, []any{&d.Jugador, &d.Puntaje, &d.Exactos, &d.Aciertos, &ofTheDay}, func() error {
		if ofTheDay {
			d.DelDia = d.Puntaje
		} else {
			d.DelDia = 0
		}
		known = known && addDelta(totals, d)
		return nil
	})
	return known, err
}

// countedNow reads the score that counts now of each of partidos that has a result.
func countedNow(ctx context.Context, tx pgx.Tx, partidos []int64, criterio string) (map[int64]Marcador, error) {
	rows, err := tx.Query(ctx, `SELECT partido_id, local, visitante FROM (`+countedScores+`) c`, partidos, criterio)
	if err != nil {
		return nil, err
	}
	now := map[int64]Marcador{}
	var id int64
	var m Marcador
	_, err = pgx.ForEachRow(rows, []any{&id, &m[0], &m[1]}, func() error { now[id] = m; return nil })
	return now, err
}

// carryPlan is how a snapshot is carried to the present results of some matches.
type carryPlan struct {
	contados    Contados   // what the new snapshot counts
	fechaDelDia *time.Time // its last matchday
	several     bool       // more than one matchday: a previous rank
	newMatchday bool       // the last matchday moved on: the previous one's points leave DelDia
	delDia      []int64    // the carried matches of the last matchday, whose points enter DelDia
	// antes: the score the snapshot carried from counts of each carried match that has points
	// in it, the score its points rows were computed from.
	antes map[int64]Marcador
	// inFlight: the carried matches whose rows are still being written for a result carried
	// before, and the fingerprint the snapshot counted of each (absent: not known).
	inFlight map[int64]*int64
}

// check compares the fingerprints of the carried matches' predictions (huellas, as the carry
// read them) with their points rows' (states): it returns the matches in antes whose
// predictions changed since their rows were computed, or whose rows' fingerprint is not
// recorded, whose rows must replace their predictions' points at the counted score. A match
// whose rows are in flight has no rows to replace them with: its predictions must be the ones
// the snapshot counted (ok false otherwise). The new snapshot records the fingerprint of what
// it counts of each carried match.
func (plan *carryPlan) check(states []partidoState, partidos []int64, huellas map[int64]int64) (rowsOf []int64, ok bool) {
	for _, p := range states {
		if !slices.Contains(partidos, p.ID) {
			continue
		}
		_, counted := plan.antes[p.ID]
		counts, inFlight := plan.inFlight[p.ID]
		switch {
		case counted && inFlight && (counts == nil || *counts != huellas[p.ID]):
			return nil, false
		case counted && !inFlight && (p.Huella == nil || *p.Huella != huellas[p.ID]):
			rowsOf = append(rowsOf, p.ID)
		}
		if _, counted := plan.contados.Marcadores[p.ID]; counted {
			plan.contados.Huellas[p.ID] = huellas[p.ID]
		} else {
			delete(plan.contados.Huellas, p.ID)
		}
	}
	return rowsOf, true
}

// planCarry checks that a snapshot counting contados, with last matchday fechaBase, can be
// carried to the scores now of partidos, its matchdays dated in zone, and says how. The rows of
// inFlight are being written for what the snapshot counts: they are not compared.
func planCarry(contados Contados, zone string, states []partidoState, partidos, inFlight []int64, now map[int64]Marcador, fechaBase *time.Time) (carryPlan, bool) {
	if contados.Zona != zone {
		return carryPlan{}, false // its matchday points were dated in another zone
	}
	byID := make(map[int64]partidoState, len(states))
	for _, p := range states {
		byID[p.ID] = p
	}
	for _, id := range partidos {
		p, ok := byID[id]
		if !ok || slices.Contains(contados.Desconocidos, id) {
			return carryPlan{}, false
		}
		// The points rows must be the ones the snapshot counted: the delta replaces them.
		if !slices.Contains(inFlight, id) && (!p.Conocido || !contados.countsRowsOf(p)) {
			return carryPlan{}, false
		}
	}
	// So must every other match's, where known: the carried table keeps their points, and rows
	// written without a snapshot (by a scorer that stopped before ranking them) or from other
	// predictions than the carry that counted them read would not be in it.
	for _, p := range states {
		if p.Conocido && !slices.Contains(partidos, p.ID) && !slices.Contains(inFlight, p.ID) &&
			!slices.Contains(contados.Desconocidos, p.ID) && !contados.countsRowsOf(p) {
			return carryPlan{}, false
		}
	}
	plan := carryPlan{contados: Contados{Marcadores: maps.Clone(contados.Marcadores), Desconocidos: contados.Desconocidos,
		Huellas: maps.Clone(contados.Huellas), Zona: zone}, antes: map[int64]Marcador{}, inFlight: map[int64]*int64{}}
	for _, id := range inFlight {
		if h, ok := contados.Huellas[id]; ok {
			plan.inFlight[id] = &h
		} else {
			plan.inFlight[id] = nil
		}
	}
	if plan.contados.Marcadores == nil {
		plan.contados.Marcadores = map[int64]Marcador{}
	}
	if plan.contados.Huellas == nil {
		plan.contados.Huellas = map[int64]int64{}
	}
	for _, id := range partidos {
		if m, ok := contados.Marcadores[id]; ok {
			plan.antes[id] = m
		}
		if m, ok := now[id]; ok {
			plan.contados.Marcadores[id] = m
		} else {
			delete(plan.contados.Marcadores, id)
		}
	}
	plan.fechaDelDia, plan.several = matchdays(states)
	switch {
	case plan.fechaDelDia == nil:
		if fechaBase != nil {
			return carryPlan{}, false // the last finished match lost its result: from the totals
		}
		return plan, true
	case fechaBase != nil && plan.fechaDelDia.Before(*fechaBase):
		return carryPlan{}, false // the last matchday moved back: its points are not in memory
	case fechaBase == nil || plan.fechaDelDia.After(*fechaBase):
		// A new last matchday: its points are those the carried matches bring, when no match of
		// that day has points in the snapshot yet.
		plan.newMatchday = true
		for _, p := range states {
			if !p.Fecha.Equal(*plan.fechaDelDia) {
				continue
			}
			if _, counted := contados.Marcadores[p.ID]; counted || slices.Contains(contados.Desconocidos, p.ID) {
				return carryPlan{}, false
			}
		}
	}
	for _, id := range partidos {
		if byID[id].Fecha.Equal(*plan.fechaDelDia) {
			plan.delDia = append(plan.delDia, id)
		}
	}
	return plan, true
}

// withNewcomers adds a row without points for each newcomer to totals (in player order), and
// keeps them in player order.
func withNewcomers(totals []ranked.Total, nuevos []int64) []ranked.Total {
	for _, id := range nuevos {
		totals = append(totals, ranked.Total{Jugador: id})
	}
	if len(nuevos) > 0 {
		slices.SortFunc(totals, func(a, b ranked.Total) int { return cmp.Compare(a.Jugador, b.Jugador) })
	}
	return totals
}

// addDelta adds a player's delta to their total (totals are in player order); false when the
// player has no total.
func addDelta(totals []ranked.Total, d ranked.Total) bool {
	i, found := slices.BinarySearchFunc(totals, d.Jugador, func(x ranked.Total, id int64) int { return cmp.Compare(x.Jugador, id) })
	if !found {
		return false
	}
	x := &totals[i]
	x.Puntaje += d.Puntaje
	x.Exactos += d.Exactos
	x.Aciertos += d.Aciertos
	x.DelDia += d.DelDia
	return true
}
