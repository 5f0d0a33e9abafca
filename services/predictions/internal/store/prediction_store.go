// Package store holds the predictions service's SQL. The cut-off is enforced here, in the
// same statement as the write, against fixtures.partidos_publicados and its database clock.
package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Apuesta is a prediction as the API shows it.
type Apuesta struct {
	ID             int64  `json:"id"`
	Partido        int64  `json:"partido"`
	GolesLocal     int    `json:"goles_local"`
	GolesVisitante int    `json:"goles_visitante"`
	Jugador        string `json:"jugador"`
}

// MatchState says why a match takes no prediction.
type MatchState struct {
	Exists    bool
	WithTeams bool
	Apostable bool
	Locked    bool // the cut-off has passed or the match is finished
	Finished  bool // its result is in
	Suspended bool
}

// ErrNoRows means the write matched nothing: see MatchState for why.
var ErrNoRows = errors.New("no row written")

// Store reads and writes predictions.apuestas.
type Store struct{ pool *pgxpool.Pool }

// New wraps a pool connected as prode_predictions.
func New(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Save creates the player's prediction for a match, or updates the one there is (one row per
// player and match, so double submits never duplicate). The SELECT yields no row unless the
// match is apostable by the database clock, so nothing is written after the cut-off, and
// unless the session is still open (players.sesiones_vigentes), so nothing is written for a
// player who signed out: the route checks only the token's signature (session.Signed), and
// this guard stands for the session lookup it saves.
func (s *Store) Save(ctx context.Context, sessionID string, playerID int64, email string, partido int64, local, visitante int) (Apuesta, bool, error) {
	var a Apuesta
	var created bool
	err := s.pool.QueryRow(ctx, `
		INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
		SELECT $1, $2, p.id, $4, $5 FROM fixtures.partidos_publicados p
		 WHERE p.id = $3 AND p.apostable
		   AND EXISTS (SELECT 1 FROM players.sesiones_vigentes s WHERE s.id = $6)
		ON CONFLICT (jugador_id, partido_id) DO UPDATE
		   SET goles_local = EXCLUDED.goles_local, goles_visitante = EXCLUDED.goles_visitante,
		       jugador_email = EXCLUDED.jugador_email, actualizada = now()
		RETURNING id, partido_id, goles_local, goles_visitante, jugador_email, (xmax = 0) AS creada`,
		playerID, email, partido, local, visitante, sessionID,
	).Scan(&a.ID, &a.Partido, &a.GolesLocal, &a.GolesVisitante, &a.Jugador, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, false, ErrNoRows
	}
	return a, created, err
}

// Update changes one of the player's predictions, under the same cut-off and session guard as
// Save.
func (s *Store) Update(ctx context.Context, sessionID string, id, playerID, partido int64, local, visitante int) (Apuesta, error) {
	var a Apuesta
	err := s.pool.QueryRow(ctx, `
		UPDATE predictions.apuestas a
		   SET goles_local = $4, goles_visitante = $5, actualizada = now()
		  FROM fixtures.partidos_publicados p
		 WHERE a.id = $1 AND a.jugador_id = $2 AND a.partido_id = $3
		   AND p.id = a.partido_id AND p.apostable
		   AND EXISTS (SELECT 1 FROM players.sesiones_vigentes s WHERE s.id = $6)
		RETURNING a.id, a.partido_id, a.goles_local, a.goles_visitante, a.jugador_email`,
		id, playerID, partido, local, visitante, sessionID,
	).Scan(&a.ID, &a.Partido, &a.GolesLocal, &a.GolesVisitante, &a.Jugador)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, ErrNoRows
	}
	return a, err
}

// MatchOf returns the match of one of the player's predictions (false when it is not theirs).
func (s *Store) MatchOf(ctx context.Context, id, playerID int64) (int64, bool, error) {
	var partido int64
	err := s.pool.QueryRow(ctx, `SELECT partido_id FROM predictions.apuestas WHERE id = $1 AND jugador_id = $2`,
		id, playerID).Scan(&partido)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	return partido, err == nil, err
}

// Match says whether a match exists, has both teams, takes predictions, is locked, finished or
// suspended.
func (s *Store) Match(ctx context.Context, partido int64) (MatchState, error) {
	st := MatchState{Exists: true}
	err := s.pool.QueryRow(ctx, `
		SELECT con_equipos, apostable, now() >= cierre OR finalizado, finalizado, suspendido
		  FROM fixtures.partidos_publicados WHERE id = $1`, partido).
		Scan(&st.WithTeams, &st.Apostable, &st.Locked, &st.Finished, &st.Suspended)
	if errors.Is(err, pgx.ErrNoRows) {
		return MatchState{}, nil
	}
	return st, err
}

// OfPlayer lists the player's predictions by match.
func (s *Store) OfPlayer(ctx context.Context, playerID int64) ([]Apuesta, error) {
	rows, _ := s.pool.Query(ctx, `
		SELECT id, partido_id, goles_local, goles_visitante, jugador_email
		  FROM predictions.apuestas WHERE jugador_id = $1 ORDER BY partido_id`, playerID)
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Apuesta])
}
