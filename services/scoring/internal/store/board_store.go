package store

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"prode/scoring/internal/ranked"
)

// Fila is one row of a table with its place in the table's display order (fila, from 1): the
// around-me board and "ver 10 más" name rows by it, and a gap between two rows' filas is a gap
// on the board.
type Fila struct {
	Posicion
	Fila int64 `json:"fila"`
}

// The tables the around-me board reads from, each by fila and by player: the tournament's
// snapshot (StandingsStore.View: Locate, Rows), a matchday's own table (MatchdayLocate, MatchdayRows)
// and a league's (GruposStore.LeagueRows). Locate finds players' filas, Rows reads rows by fila.

// View is the table at one version read once for the lookups of one answer (a board locates
// players, then reads rows): the snapshot, and for the current tournament the newcomers who
// follow it.
type View struct {
	store  *StandingsStore
	v      Version
	table  *ranked.Table
	nuevos []int64
}

// View reads the table at v.
func (s *StandingsStore) View(ctx context.Context, v Version) (*View, error) {
	table, nuevos, err := s.at(ctx, v)
	return &View{store: s, v: v, table: table, nuevos: nuevos}, err
}

// Locate finds the given players' filas, and counts the table's rows: in the snapshot, and for
// the current tournament among the newcomers who follow it (as Page counts them). A player in
// neither is left out.
func (w *View) Locate(ids []int64) (total int64, filas map[int64]int64) {
	filas = make(map[int64]int64, len(ids))
	for _, id := range ids {
		if fila, ok := w.table.Find(id); ok {
			filas[id] = fila
		} else if n, ok := slices.BinarySearch(w.nuevos, id); ok {
			filas[id] = w.table.Len() + int64(n) + 1
		}
	}
	return w.table.Len() + int64(len(w.nuevos)), filas
}

// Rows reads the rows at the given filas (sorted, no repeats), in order: the snapshot's, then
// the newcomers who follow it.
func (w *View) Rows(ctx context.Context, filas []int64) ([]Fila, error) {
	return w.store.filasAt(ctx, w.v, w.table, w.nuevos, filas)
}

// TablaAt reads a tournament's snapshot by its id (a version an answer gave before): false when
// it is gone (two builds later) or of another tournament.
func (s *StandingsStore) TablaAt(ctx context.Context, torneo, id int64) (Tabla, bool, error) {
	var t Tabla
	err := s.pool.QueryRow(ctx, `
		SELECT id, torneo_id, jugadores_hasta, filas, posicion_ceros
		  FROM scoring.tablas_compactas WHERE id = $1 AND torneo_id = $2`, id, torneo).
		Scan(&t.ID, &t.Torneo, &t.JugadoresHasta, &t.Filas, &t.PosicionCeros)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, false, nil
	}
	return t, err == nil, err
}

// matchdayRows numbers a matchday's own table as MatchdayPage orders and ranks it: the players
// who scored on date $2 in tournament $1. It reads every row of that day (as a page of it does):
// the matchday's table is not a snapshot.
const matchdayRows = `
	WITH dia AS (
	    SELECT t.jugador_id, t.puntaje, t.exactos, t.aciertos,
	           rank() OVER (ORDER BY t.puntaje DESC) AS posicion,
	           row_number() OVER (ORDER BY t.puntaje DESC, t.exactos DESC, t.aciertos DESC, t.jugador_id) AS fila
	      FROM scoring.totales_fecha t
	     WHERE t.torneo_id = $1 AND t.fecha = $2 AND t.puntaje > 0
	)`

// MatchdayLocate finds the given players' filas in a matchday's table, and counts its rows.
func (s *StandingsStore) MatchdayLocate(ctx context.Context, torneo int64, fecha time.Time, ids []int64) (total int64, filas map[int64]int64, err error) {
	var found []byte
	err = s.pool.QueryRow(ctx, matchdayRows+`
		SELECT count(*), coalesce(jsonb_object_agg(jugador_id, fila) FILTER (WHERE jugador_id = ANY($3::bigint[])), '{}')
		  FROM dia`, torneo, fecha, ids).Scan(&total, &found)
	if err != nil {
		return 0, nil, err
	}
	filas = map[int64]int64{}
	return total, filas, json.Unmarshal(found, &filas)
}

// MatchdayRows reads the rows at the given filas of a matchday's table, in order.
func (s *StandingsStore) MatchdayRows(ctx context.Context, torneo int64, fecha time.Time, filas []int64) ([]Fila, error) {
	rows, err := s.pool.Query(ctx, matchdayRows+`
		SELECT d.posicion, d.jugador_id, j.nombre, d.puntaje, d.exactos, d.aciertos, d.fila
		  FROM dia d
		  JOIN players.jugadores_publicados j ON j.id = d.jugador_id
		 WHERE d.fila = ANY($3::bigint[])
		 ORDER BY d.fila`, torneo, fecha, filas)
	if err != nil {
		return nil, err
	}
	return pgx.AppendRows(make([]Fila, 0, len(filas)), rows, func(row pgx.CollectableRow) (Fila, error) {
		var r Fila
		err := row.Scan(&r.Posicion.Posicion, &r.ID, &r.Nombre, &r.Puntaje, &r.Exactos, &r.Aciertos, &r.Fila)
		return r, err
	})
}
