package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PuntosDeJugador is one player's prediction and points in a finished match.
type PuntosDeJugador struct {
	Nombre         string `json:"nombre"`
	GolesLocal     int    `json:"goles_local"`
	GolesVisitante int    `json:"goles_visitante"`
	Puntos         int    `json:"puntos"`
	Propia         bool   `json:"propia"` // the signed-in player's own row
}

// PuntosContados is how many players scored puntos in a match.
type PuntosContados struct {
	Puntos    int `json:"puntos"`
	Jugadores int `json:"jugadores"`
}

// MatchPointsStore reads one match's points for the match page: who scored what.
type MatchPointsStore struct{ pool *pgxpool.Pool }

// NewMatchPointsStore wraps a pool connected as prode_scoring.
func NewMatchPointsStore(pool *pgxpool.Pool) *MatchPointsStore { return &MatchPointsStore{pool: pool} }

// Finished says whether the match exists and whether it has a result.
func (s *MatchPointsStore) Finished(ctx context.Context, partido int64) (exists, finished bool, err error) {
	err = s.pool.QueryRow(ctx, `SELECT finalizado FROM fixtures.partidos_publicados WHERE id = $1`, partido).Scan(&finished)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, false, nil
	}
	return err == nil, finished, err
}

// Counts says how many players scored each number of points in the match, the most points
// first: one pass over the match's rows of scoring.puntos (its primary key's range), at most
// five groups.
func (s *MatchPointsStore) Counts(ctx context.Context, partido int64) ([]PuntosContados, error) {
	rows, _ := s.pool.Query(ctx, `
		SELECT puntos, count(*) FROM scoring.puntos WHERE partido_id = $1
		 GROUP BY puntos ORDER BY puntos DESC`, partido)
	return pgx.CollectRows(rows, pgx.RowToStructByPos[PuntosContados])
}

// Own is the player's points in the match; nil without a prediction (or before scoring).
func (s *MatchPointsStore) Own(ctx context.Context, partido, jugador int64) (*int, error) {
	var puntos int
	err := s.pool.QueryRow(ctx, `SELECT puntos FROM scoring.puntos WHERE partido_id = $1 AND jugador_id = $2`,
		partido, jugador).Scan(&puntos)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &puntos, err
}

// Page lists limit players from offset, by name, with their prediction and points; puntos, when
// not nil, keeps only those who scored that. Like the predictions' page it walks the names in
// order (index players.jugadores_nombre) and looks each player's points and prediction up by
// key, so an early page costs a few dozen lookups however many played. The result is checked in
// the same statement (a one-time filter): a result deleted since the check shows no points.
func (s *MatchPointsStore) Page(ctx context.Context, partido, jugador int64, puntos *int, offset, limit int) ([]PuntosDeJugador, error) {
	const sql = `
		SELECT j.nombre, a.goles_local, a.goles_visitante, pt.puntos, j.id = $2
		  FROM players.jugadores_publicados j
		  JOIN scoring.puntos pt ON pt.partido_id = $1 AND pt.jugador_id = j.id
		  JOIN predictions.apuestas_publicadas a ON a.partido_id = $1 AND a.jugador_id = j.id
		 WHERE EXISTS (SELECT FROM fixtures.partidos_publicados p WHERE p.id = $1 AND p.finalizado)`
	const page = `
		 ORDER BY j.nombre, j.id
		 LIMIT $3 OFFSET $4`
	var rows pgx.Rows
	if puntos == nil {
		rows, _ = s.pool.Query(ctx, sql+page, partido, jugador, limit, offset)
	} else {
		// Planned for its value each time (not a cached generic plan): the walk by name suits a
		// common value, and reading the match's points with that value, then sorting them, a rare
		// one (a handful of exact hits among 2,000,000 players).
		rows, _ = s.pool.Query(ctx, sql+` AND pt.puntos = $5`+page, pgx.QueryExecModeExec, partido, jugador, limit, offset, puntos)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[PuntosDeJugador])
}
