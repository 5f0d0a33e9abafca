package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// Everyone's predictions for one match, shown once it is locked (the match page).

// MatchLock says whether a match's predictions may be shown, by the database clock.
type MatchLock struct {
	Exists bool
	Locked bool // the cut-off has passed or the match is finished: predictions are shown
	// Settled: locked by the cut-off for over a minute, so no write that started before it
	// can still commit; the predictions no longer change and their distribution may be kept.
	Settled bool
	Cierre  time.Time
}

// Marcador is a predicted score.
type Marcador struct {
	GolesLocal     int `json:"goles_local"`
	GolesVisitante int `json:"goles_visitante"`
}

// MarcadorContado is a predicted score and how many players predicted it.
type MarcadorContado struct {
	Marcador
	Jugadores int
}

// ApuestaDeOtro is a player's prediction as the match page lists it, once the match is locked;
// propia marks the signed-in player's own.
type ApuestaDeOtro struct {
	Nombre         string `json:"nombre"`
	GolesLocal     int    `json:"goles_local"`
	GolesVisitante int    `json:"goles_visitante"`
	Propia         bool   `json:"propia"`
}

// Lock reads the match's lock from fixtures.partidos_publicados (its clock is the database's,
// the one the cut-off of every write uses).
func (s *Store) Lock(ctx context.Context, partido int64) (MatchLock, error) {
	l := MatchLock{Exists: true}
	err := s.pool.QueryRow(ctx, `
		SELECT now() >= cierre OR finalizado, now() >= cierre + interval '1 minute', cierre
		  FROM fixtures.partidos_publicados WHERE id = $1`, partido).Scan(&l.Locked, &l.Settled, &l.Cierre)
	if errors.Is(err, pgx.ErrNoRows) {
		return MatchLock{}, nil
	}
	return l, err
}

// Scores counts the match's predictions by predicted score, the most predicted first: one pass
// over the match's rows (index apuestas_partido) that leaves at most a few dozen groups, from
// which the service adds up home wins, draws and away wins.
func (s *Store) Scores(ctx context.Context, partido int64) ([]MarcadorContado, error) {
	rows, _ := s.pool.Query(ctx, `
		SELECT goles_local, goles_visitante, count(*)
		  FROM predictions.apuestas
		 WHERE partido_id = $1
		 GROUP BY goles_local, goles_visitante
		 ORDER BY count(*) DESC, goles_local, goles_visitante`, partido)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (MarcadorContado, error) {
		var m MarcadorContado
		err := row.Scan(&m.GolesLocal, &m.GolesVisitante, &m.Jugadores)
		return m, err
	})
}

// Page lists limit of the match's predictions from offset, by player name. It walks the names
// in order (index players.jugadores_nombre) and looks each player's prediction up by key, so a
// page near the start costs a few dozen lookups however many played; page n costs about n
// pages' worth. The lock is checked again in the same statement (a one-time filter, which keeps
// the walk in name order), so a reschedule between the check and the read cannot leak them.
func (s *Store) Page(ctx context.Context, partido, jugador int64, offset, limit int) ([]ApuestaDeOtro, error) {
	rows, _ := s.pool.Query(ctx, `
		SELECT j.nombre, a.goles_local, a.goles_visitante, a.jugador_id = $2
		  FROM players.jugadores_publicados j
		  JOIN predictions.apuestas a ON a.jugador_id = j.id AND a.partido_id = $1
		 WHERE EXISTS (SELECT FROM fixtures.partidos_publicados p
		                WHERE p.id = $1 AND (now() >= p.cierre OR p.finalizado))
		 ORDER BY j.nombre, j.id
		 LIMIT $3 OFFSET $4`, partido, jugador, limit, offset)
	return pgx.CollectRows(rows, pgx.RowToStructByPos[ApuestaDeOtro])
}

// Own is the player's prediction for the match; nil when there is none.
func (s *Store) Own(ctx context.Context, partido, jugador int64) (*Marcador, error) {
	var m Marcador
	err := s.pool.QueryRow(ctx, `
		SELECT goles_local, goles_visitante FROM predictions.apuestas
		 WHERE jugador_id = $2 AND partido_id = $1`, partido, jugador).Scan(&m.GolesLocal, &m.GolesVisitante)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &m, err
}
