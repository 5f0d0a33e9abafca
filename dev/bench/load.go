package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/session"
)

// player is a loaded player and the cookie of a live session of theirs.
type player struct {
	ID     int64
	Email  string
	Cookie string
}

func benchEmail(i int) string { return fmt.Sprintf("jugador%06d@bench.test", i) }

// loadPlayers copies n players into players.jugadores and returns their ids in order.
func loadPlayers(ctx context.Context, db *pgxpool.Pool, n int) ([]int64, error) {
	i := 0
	_, err := db.CopyFrom(ctx, pgx.Identifier{"players", "jugadores"}, []string{"google_sub", "email", "nombre"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i == n {
				return nil, nil
			}
			i++
			return []any{fmt.Sprintf("bench-%06d", i), benchEmail(i), fmt.Sprintf("Jugador %06d", i)}, nil
		}))
	if err != nil {
		return nil, fmt.Errorf("copy players: %w", err)
	}
	rows, err := db.Query(ctx, `SELECT id FROM players.jugadores WHERE email LIKE '%@bench.test' ORDER BY email`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// loadPredictions copies one prediction per player and match, goals drawn from a fixed seed
// between 0 and 4 (so that exact hits, right outcomes and misses all occur).
func loadPredictions(ctx context.Context, db *pgxpool.Pool, players []int64, partidos []int64) (int64, error) {
	rng := rand.New(rand.NewPCG(2022, 12))
	p, m := 0, 0
	n, err := db.CopyFrom(ctx, pgx.Identifier{"predictions", "apuestas"},
		[]string{"jugador_id", "jugador_email", "partido_id", "goles_local", "goles_visitante"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if m == len(partidos) {
				m, p = 0, p+1
			}
			if p == len(players) {
				return nil, nil
			}
			row := []any{players[p], benchEmail(p + 1), partidos[m], int16(rng.IntN(5)), int16(rng.IntN(5))}
			m++
			return row, nil
		}))
	if err != nil {
		return n, fmt.Errorf("copy predictions: %w", err)
	}
	_, err = db.Exec(ctx, `ANALYZE players.jugadores; ANALYZE predictions.apuestas`)
	return n, err
}

// openSessions opens a session for each player given, as the players service does at sign-in,
// and signs its cookie with the stack's key.
func openSessions(ctx context.Context, db *pgxpool.Pool, key []byte, ids []int64, emails []string, admin bool) ([]player, error) {
	expires := time.Now().Add(24 * time.Hour)
	rows, err := db.Query(ctx, `
		INSERT INTO players.sesiones (id, jugador_id, expira)
		SELECT md5(id::text)::uuid, id, $2 FROM unnest($1::bigint[]) AS id
		RETURNING id::text, jugador_id`, ids, expires)
	if err != nil {
		return nil, err
	}
	bySession, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]any, error) {
		var sid string
		var id int64
		err := r.Scan(&sid, &id)
		return [2]any{sid, id}, err
	})
	if err != nil {
		return nil, err
	}
	emailOf := map[int64]string{}
	for i, id := range ids {
		emailOf[id] = emails[i]
	}
	out := make([]player, 0, len(bySession))
	for _, s := range bySession {
		id := s[1].(int64)
		token, err := session.Sign(key, session.Claims{
			SessionID: s[0].(string), PlayerID: id, Email: emailOf[id],
			Nombre: "Bench", Admin: admin, Expires: expires.Unix(),
		})
		if err != nil {
			return nil, err
		}
		out = append(out, player{ID: id, Email: emailOf[id], Cookie: session.CookieName + "=" + token})
	}
	return out, nil
}

// addAdmin registers the organiser account of the local stack (ADMIN_EMAILS) and opens a
// session for it.
func addAdmin(ctx context.Context, db *pgxpool.Pool, key []byte) (player, error) {
	const email = "admin@prode.test"
	var id int64
	err := db.QueryRow(ctx, `
		INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ('bench-admin', $1, 'Organización')
		ON CONFLICT (email) DO UPDATE SET actualizado = now()
		RETURNING id`, email).Scan(&id)
	if err != nil {
		return player{}, err
	}
	ps, err := openSessions(ctx, db, key, []int64{id}, []string{email}, true)
	if err != nil {
		return player{}, err
	}
	return ps[0], nil
}
