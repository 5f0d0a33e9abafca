package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/events"
	"prode/platform/session"
)

// player is a loaded player and the cookie of a live session of theirs.
type player struct {
	ID     int64
	Email  string
	Cookie string
}

func benchEmail(i int) string { return fmt.Sprintf("jugador%06d@bench.test", i) }

// loadPlayers copies n players into players.jugadores, numbered after the first `loaded` bench
// players (make bench-scale grows one database), and returns the new players' ids in order.
func loadPlayers(ctx context.Context, db *pgxpool.Pool, loaded, n int) ([]int64, error) {
	var before int64
	if err := db.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM players.jugadores`).Scan(&before); err != nil {
		return nil, err
	}
	i := loaded
	_, err := db.CopyFrom(ctx, pgx.Identifier{"players", "jugadores"}, []string{"google_sub", "email", "nombre"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i == loaded+n {
				return nil, nil
			}
			i++
			return []any{fmt.Sprintf("bench-%06d", i), benchEmail(i), fmt.Sprintf("Jugador %06d", i)}, nil
		}))
	if err != nil {
		return nil, fmt.Errorf("copy players: %w", err)
	}
	// By id, not e-mail: past 999,999 players the e-mails no longer sort in loading order.
	rows, err := db.Query(ctx, `SELECT id FROM players.jugadores WHERE id > $1 AND email LIKE '%@bench.test' ORDER BY id`, before)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// loadPredictions copies one prediction per player and match, goals drawn from a fixed seed
// between 0 and 4 (so that exact hits, right outcomes and misses all occur). players follow the
// first `loaded` bench players, whose e-mails they continue (and whose draws they do not repeat).
func loadPredictions(ctx context.Context, db *pgxpool.Pool, loaded int, players []int64, partidos []int64) (int64, error) {
	rng := rand.New(rand.NewPCG(2022, 12+uint64(loaded)))
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
			row := []any{players[p], benchEmail(loaded + p + 1), partidos[m], int16(rng.IntN(5)), int16(rng.IntN(5))}
			m++
			return row, nil
		}))
	if err != nil {
		return n, fmt.Errorf("copy predictions: %w", err)
	}
	if _, err = db.Exec(ctx, `ANALYZE players.jugadores`); err != nil {
		return n, err
	}
	// As autovacuum does once 2% of the predictions are new (predictions 000003): the
	// visibility map then lets a match's predictions be read from their index alone.
	_, err = db.Exec(ctx, `VACUUM (ANALYZE) predictions.apuestas`)
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

// pastTournament is the finished tournament the bench loads beside the current one, so that
// every figure is taken with two tournaments in the database (issue 19).
const pastTournament = "Copa anterior (bench)"

// loadPastTournament copies the current tournament's matches four years back into a past
// tournament, with a result each and every player's predictions of them, enters the results
// through the outbox as an import would, and waits until scoring has applied them. It returns
// the time that took and the predictions of the past tournament.
func (b *bench) loadPastTournament(ctx context.Context) (time.Duration, int64, error) {
	start := time.Now()
	var predictions int64
	err := pgx.BeginFunc(ctx, b.db, func(tx pgx.Tx) error {
		// One statement per Exec: with arguments, pgx sends a prepared statement.
		for _, sql := range []string{
			`INSERT INTO fixtures.torneos (nombre) VALUES ($1)`,
			`INSERT INTO fixtures.partidos (torneo, torneo_id, numero, categoria, local, visitante, inicio, sede)
			 SELECT $1, (SELECT id FROM fixtures.torneos WHERE nombre = $1), p.numero, p.categoria,
			        coalesce(p.local, 'ARG'), coalesce(p.visitante, 'FRA'), p.inicio - interval '4 years', p.sede
			   FROM fixtures.partidos p JOIN fixtures.torneos t ON t.id = p.torneo_id AND t.actual`,
			`INSERT INTO fixtures.resultados (partido_id, goles_local, goles_visitante)
			 SELECT id, id % 3, (id / 3) % 3 FROM fixtures.partidos WHERE torneo = $1`,
		} {
			if _, err := tx.Exec(ctx, sql, pastTournament); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, `
			INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
			SELECT a.jugador_id, a.jugador_email, pasado.id, a.goles_visitante, a.goles_local
			  FROM predictions.apuestas a
			  JOIN fixtures.partidos actual ON actual.id = a.partido_id
			  JOIN fixtures.torneos t ON t.id = actual.torneo_id AND t.actual
			  JOIN fixtures.partidos pasado ON pasado.torneo = $1 AND pasado.numero = actual.numero`, pastTournament)
		if err != nil {
			return err
		}
		predictions = tag.RowsAffected()
		if _, err := tx.Exec(ctx, `
			INSERT INTO fixtures.eventos (partido_id, tipo)
			SELECT id, $2 FROM fixtures.partidos WHERE torneo = $1`, pastTournament, events.ResultadoCargado); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `NOTIFY `+events.Channel+`; ANALYZE predictions.apuestas`)
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	if err := b.waitScored(ctx, start); err != nil {
		return 0, 0, err
	}
	return time.Since(start), predictions, nil
}
