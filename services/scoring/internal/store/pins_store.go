package store

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Fijado is a player another pinned (GET /api/posiciones/fijados).
type Fijado struct {
	ID     int64  `json:"id"`
	Nombre string `json:"nombre"`
}

// PinsStore keeps the players each player pinned (scoring.fijados).
type PinsStore struct{ pool *pgxpool.Pool }

// NewPinsStore wraps a pool connected as prode_scoring.
func NewPinsStore(pool *pgxpool.Pool) *PinsStore { return &PinsStore{pool: pool} }

// List reads the players jugador pinned, by name.
func (s *PinsStore) List(ctx context.Context, jugador int64) ([]Fijado, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT f.fijado_id, j.nombre
		  FROM scoring.fijados f
		  JOIN players.jugadores_publicados j ON j.id = f.fijado_id
		 WHERE f.jugador_id = $1
		 ORDER BY j.nombre, f.fijado_id`, jugador)
	if err != nil {
		return nil, err
	}
	return pgx.AppendRows(make([]Fijado, 0), rows, pgx.RowToStructByPos[Fijado])
}

// IDs reads the ids of the players jugador pinned, for the board.
func (s *PinsStore) IDs(ctx context.Context, jugador int64) ([]int64, error) {
	rows, err := s.pool.Query(ctx, `SELECT fijado_id FROM scoring.fijados WHERE jugador_id = $1 ORDER BY fijado_id`, jugador)
	if err != nil {
		return nil, err
	}
	return pgx.AppendRows(make([]int64, 0), rows, pgx.RowTo[int64])
}

// Pin pins fijado for jugador (already pinned: nothing changes). ErrNoPlayer when no player has
// that id; pinning oneself is the caller's to refuse (the table's CHECK refuses it too).
func (s *PinsStore) Pin(ctx context.Context, jugador, fijado int64) error {
	var existe bool
	err := s.pool.QueryRow(ctx, `
		WITH otro AS (SELECT id FROM players.jugadores_publicados WHERE id = $2),
		     nuevo AS (INSERT INTO scoring.fijados (jugador_id, fijado_id) SELECT $1, id FROM otro
		               ON CONFLICT DO NOTHING)
		SELECT EXISTS (SELECT FROM otro)`, jugador, fijado).Scan(&existe)
	if err == nil && !existe {
		return ErrNoPlayer
	}
	return err
}

// Unpin unpins fijado for jugador (not pinned: nothing changes).
func (s *PinsStore) Unpin(ctx context.Context, jugador, fijado int64) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM scoring.fijados WHERE jugador_id = $1 AND fijado_id = $2`, jugador, fijado)
	return err
}
