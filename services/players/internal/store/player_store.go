// Package store holds the players service's SQL: players, their sessions, and the dev sign-in
// codes already exchanged.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/events"
)

// Player is a row of players.jugadores.
type Player struct {
	ID     int64
	Email  string
	Nombre string
}

// ErrNotFound means no such player.
var ErrNotFound = errors.New("not found")

// Store reads and writes the players schema.
type Store struct{ pool *pgxpool.Pool }

// New wraps a pool connected as prode_players.
func New(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// SignIn registers the player (the e-mail is the player's identifier, as in the
// specification) and opens a session, in one transaction.
func (s *Store) SignIn(ctx context.Context, subject, email, nombre, sessionID string, expires time.Time) (Player, error) {
	var p Player
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ($1, $2, $3)
			ON CONFLICT (email) DO UPDATE
			   SET google_sub = EXCLUDED.google_sub, nombre = EXCLUDED.nombre, actualizado = now()
			RETURNING id, email, nombre`, subject, email, nombre).Scan(&p.ID, &p.Email, &p.Nombre)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO players.sesiones (id, jugador_id, expira) VALUES ($1, $2, $3)`,
			sessionID, p.ID, expires)
		return err
	})
	return p, err
}

// Player reads one player.
func (s *Store) Player(ctx context.Context, id int64) (Player, error) {
	p := Player{ID: id}
	err := s.pool.QueryRow(ctx, `SELECT email, nombre FROM players.jugadores WHERE id = $1`, id).Scan(&p.Email, &p.Nombre)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, ErrNotFound
	}
	return p, err
}

// Rename sets the display name.
func (s *Store) Rename(ctx context.Context, id int64, nombre string) (Player, error) {
	p := Player{ID: id}
	err := s.pool.QueryRow(ctx, `
		UPDATE players.jugadores SET nombre = $2, actualizado = now() WHERE id = $1
		RETURNING email, nombre`, id, nombre).Scan(&p.Email, &p.Nombre)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, ErrNotFound
	}
	return p, err
}

// NamesOf reads the display names of the players with these addresses (the organisers').
func (s *Store) NamesOf(ctx context.Context, emails []string) ([]string, error) {
	rows, _ := s.pool.Query(ctx, `SELECT nombre FROM players.jugadores WHERE email = ANY($1)`, emails)
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// RenewSession moves a session's expiry later, to expires, while it is still open; false when
// it had ended ('Salir' or expired) or already expires later.
func (s *Store) RenewSession(ctx context.Context, sessionID string, expires time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
		UPDATE players.sesiones SET expira = $2
		 WHERE id = $1 AND cerrada IS NULL AND expira > now() AND expira < $2`, sessionID, expires)
	return tag.RowsAffected() == 1, err
}

// EndSession closes a session; every service refuses its cookie from then on. The statement
// also notifies events.AccessChannel, heard on commit: scoring's replicas answer a league's
// table without asking PostgreSQL whether the session is open (grupos' access cache), and
// forget the session when they hear it ended.
func (s *Store) EndSession(ctx context.Context, sessionID string) error {
	_, err := s.pool.Exec(ctx, `
		WITH cerrada AS (
		    UPDATE players.sesiones SET cerrada = now() WHERE id = $1 AND cerrada IS NULL RETURNING id
		)
		SELECT pg_notify($2, $3) FROM cerrada`, sessionID, events.AccessChannel, events.SessionEnded(sessionID))
	return err
}

// MarkDevCodeUsed records the nonce of a dev sign-in code as exchanged, until vence (the code's
// expiry). It answers false when the nonce was already there: the code was exchanged before, by
// this replica or another. The insert is the check, so two replicas racing with the same code
// cannot both win: the second waits for the first to commit and then inserts nothing.
//
// The same statement deletes up to 100 rows expired for ten minutes, so the table holds only the
// last minutes' codes without a job of its own. The margin covers a replica whose clock is behind
// the database's, which still takes a code the database deems expired. SKIP LOCKED: sign-ins
// running together never wait for each other's deletions, nor deadlock over them.
func (s *Store) MarkDevCodeUsed(ctx context.Context, nonce string, vence time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
		WITH vencidos AS (
			DELETE FROM players.codigos_dev_usados WHERE nonce IN (
				SELECT nonce FROM players.codigos_dev_usados
				 WHERE vence < now() - interval '10 minutes'
				 LIMIT 100 FOR UPDATE SKIP LOCKED)
		)
		INSERT INTO players.codigos_dev_usados (nonce, vence) VALUES ($1, $2)
		ON CONFLICT (nonce) DO NOTHING`, nonce, vence)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}
