package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Posicion is one row of the standings.
type Posicion struct {
	Posicion int64  `json:"posicion"`
	ID       int64  `json:"id"`
	Nombre   string `json:"nombre"`
	Puntaje  int64  `json:"puntaje"`
	Exactos  int64  `json:"exactos"`
	Aciertos int64  `json:"aciertos"`
}

// Pagina is one page of the standings as GET /api/posiciones answers it, plus the standings
// version it was read at (the cache key).
type Pagina struct {
	Version    int64      `json:"-"`
	Pagina     int        `json:"pagina"`
	PorPagina  int        `json:"por_pagina"`
	Total      int64      `json:"total"`
	Posiciones []Posicion `json:"posiciones"`
}

// MiPosicion is the signed-in player's place.
type MiPosicion struct {
	Posicion int64 `json:"posicion"`
	Puntaje  int64 `json:"puntaje"`
	Exactos  int64 `json:"exactos"`
	Aciertos int64 `json:"aciertos"`
	Pagina   int64 `json:"pagina"`
}

// ErrNoPlayer means the player is not registered.
var ErrNoPlayer = errors.New("player not registered")

// StandingsStore reads the standings.
type StandingsStore struct{ pool *pgxpool.Pool }

// NewStandingsStore wraps a pool connected as prode_scoring.
func NewStandingsStore(pool *pgxpool.Pool) *StandingsStore { return &StandingsStore{pool: pool} }

// tabla is every registered player with their totals (0 without any): competition ranking by
// puntaje (10, 10, 8 -> 1, 1, 3) and the display order, ties by exact hits, right outcomes,
// name and id.
const tabla = `
	WITH tabla AS (
	    SELECT j.id, j.nombre,
	           coalesce(t.puntaje, 0)  AS puntaje,
	           coalesce(t.exactos, 0)  AS exactos,
	           coalesce(t.aciertos, 0) AS aciertos
	      FROM players.jugadores_publicados j
	      LEFT JOIN scoring.totales t ON t.jugador_id = j.id
	), ordenada AS (
	    SELECT tabla.*,
	           rank() OVER (ORDER BY puntaje DESC) AS posicion,
	           row_number() OVER (ORDER BY puntaje DESC, exactos DESC, aciertos DESC, nombre, id) AS fila
	      FROM tabla
	)`

// Page reads one page of the standings together with the version and the player count, all
// from one snapshot, so that the page can be cached under that version.
func (s *StandingsStore) Page(ctx context.Context, pagina, porPagina int) (Pagina, error) {
	p := Pagina{Pagina: pagina, PorPagina: porPagina, Posiciones: []Posicion{}}
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			SELECT (SELECT version FROM scoring.estado),
			       (SELECT count(*) FROM players.jugadores_publicados)`).Scan(&p.Version, &p.Total)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, tabla+`
			SELECT posicion, id, nombre, puntaje, exactos, aciertos
			  FROM ordenada
			 ORDER BY fila
			 LIMIT $1 OFFSET $2`, porPagina, int64(pagina-1)*int64(porPagina))
		if err != nil {
			return err
		}
		p.Posiciones, err = pgx.AppendRows(p.Posiciones, rows, pgx.RowToStructByPos[Posicion])
		return err
	})
	return p, err
}

// Player reads one player's place and the page of porPagina rows that holds it.
func (s *StandingsStore) Player(ctx context.Context, id int64, porPagina int) (MiPosicion, error) {
	var m MiPosicion
	err := s.pool.QueryRow(ctx, tabla+`
		SELECT posicion, puntaje, exactos, aciertos, (fila - 1) / $2 + 1
		  FROM ordenada
		 WHERE id = $1`, id, porPagina).Scan(&m.Posicion, &m.Puntaje, &m.Exactos, &m.Aciertos, &m.Pagina)
	if errors.Is(err, pgx.ErrNoRows) {
		return m, ErrNoPlayer
	}
	return m, err
}

// Version is the current standings version.
func (s *StandingsStore) Version(ctx context.Context) (int64, error) {
	var v int64
	err := s.pool.QueryRow(ctx, `SELECT version FROM scoring.estado`).Scan(&v)
	return v, err
}
