package store

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/scoring/internal/ranked"
)

// Posicion is one row of the standings.
type Posicion struct {
	Posicion         int64  `json:"posicion"`
	ID               int64  `json:"id"`
	Nombre           string `json:"nombre"`
	Puntaje          int64  `json:"puntaje"`
	Exactos          int64  `json:"exactos"`
	Aciertos         int64  `json:"aciertos"`
	PosicionAnterior *int64 `json:"posicion_anterior"`
	// Bonus is the part of Puntaje that bonus questions gave (0 in a matchday's own table).
	Bonus int64 `json:"bonus"`
}

// Pagina is one page of a tournament's standings as GET /api/posiciones answers it.
type Pagina struct {
	Torneo     int64      `json:"torneo"`
	Version    int64      `json:"version"`
	Pagina     int        `json:"pagina"`
	PorPagina  int        `json:"por_pagina"`
	Total      int64      `json:"total"`
	Posiciones []Posicion `json:"posiciones"`
}

// MiPosicion is the signed-in player's place.
type MiPosicion struct {
	Posicion         int64  `json:"posicion"`
	Puntaje          int64  `json:"puntaje"`
	Exactos          int64  `json:"exactos"`
	Aciertos         int64  `json:"aciertos"`
	Pagina           int64  `json:"pagina"`
	PosicionAnterior *int64 `json:"posicion_anterior"`
	Bonus            int64  `json:"bonus"` // the part of Puntaje that bonus questions gave
}

// Torneo is a tournament as fixtures publishes it.
type Torneo struct {
	ID     int64
	Actual bool
}

// Tabla is a standings snapshot (scoring.tablas_compactas): a tournament's table ranked at one moment.
type Tabla struct {
	ID             int64 // the standings version
	Torneo         int64
	JugadoresHasta int64 // players with an id up to this one were ranked
	Filas          int64
	PosicionCeros  int64 // the rank of a player without points
}

// Version is what one answer of the standings is read at: a snapshot, and for the current
// tournament the players registered up to Jugadores (those after the snapshot follow its rows
// with no points). Every page read at one Version is a page of one table.
type Version struct {
	Tabla
	Jugadores int64 // 0: no players after the snapshot (a tournament that is not current)
}

// ErrNoPlayer means the player is not in the table.
var ErrNoPlayer = errors.New("player not in the standings")

// StandingsStore builds and reads the standings snapshots.
type StandingsStore struct {
	pool      *pgxpool.Pool
	snapshots *Snapshots
	turns     turns
}

// NewStandingsStore wraps a pool connected as prode_scoring; snapshots keeps the decoded
// snapshots it reads (shared with the leagues' store).
func NewStandingsStore(pool *pgxpool.Pool, snapshots *Snapshots) *StandingsStore {
	return &StandingsStore{pool: pool, snapshots: snapshots}
}

// table is snapshot id, decoded (0: the empty table of a tournament without one yet).
func (s *StandingsStore) table(ctx context.Context, id int64) (*ranked.Table, error) {
	return s.snapshots.get(ctx, id, func(ctx context.Context) ([]byte, error) {
		var datos []byte
		err := s.pool.QueryRow(ctx, `SELECT datos FROM scoring.tablas_compactas WHERE id = $1`, id).Scan(&datos)
		return datos, err
	})
}

// Tournaments lists the tournaments fixtures publishes.
func (s *StandingsStore) Tournaments(ctx context.Context) ([]Torneo, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, actual FROM fixtures.torneos_publicados ORDER BY id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Torneo])
}

// LastPlayer is the id of the newest registered player (0 when none).
func (s *StandingsStore) LastPlayer(ctx context.Context) (int64, error) {
	var id int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM players.jugadores_publicados`).Scan(&id)
	return id, err
}

// Latest returns each tournament's newest snapshot.
func (s *StandingsStore) Latest(ctx context.Context) ([]Tabla, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT DISTINCT ON (torneo_id) id, torneo_id, jugadores_hasta, filas, posicion_ceros
		  FROM scoring.tablas_compactas
		 ORDER BY torneo_id, id DESC`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Tabla])
}

// newcomerWindow is how far below a snapshot's last player the newcomers are looked for: ids
// are handed out before commit, so a few players registered just before a snapshot can commit
// after it was read, and follow its rows like those registered after it.
const newcomerWindow = 1000

// newcomers are the players who follow the rows of snapshot t (decoded: table), in the order
// they registered: registered after it (up to upTo), or within the window before it and not
// among its rows. One index range of players' ids: the sign-ups since the snapshot.
func (s *StandingsStore) newcomers(ctx context.Context, table *ranked.Table, t Tabla, upTo int64) ([]int64, error) {
	return newcomersOf(ctx, s.pool, table, t, upTo)
}

// newcomersOf is newcomers read through q: a carry reads them in its own transaction, beside
// the snapshot they follow.
func newcomersOf(ctx context.Context, q querier, table *ranked.Table, t Tabla, upTo int64) ([]int64, error) {
	rows, err := q.Query(ctx, `
		SELECT id FROM players.jugadores_publicados WHERE id > $1 AND id <= $2 ORDER BY id`,
		t.JugadoresHasta-newcomerWindow, upTo)
	if err != nil {
		return nil, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return slices.DeleteFunc(ids, func(id int64) bool {
		_, ranked := table.Find(id)
		return id <= t.JugadoresHasta && ranked
	}), err
}

// names reads the players' display names.
func (s *StandingsStore) names(ctx context.Context, ids []int64) (map[int64]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, nombre FROM players.jugadores_publicados WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, err
	}
	names := make(map[int64]string, len(ids))
	var id int64
	var nombre string
	_, err = pgx.ForEachRow(rows, []any{&id, &nombre}, func() error { names[id] = nombre; return nil })
	return names, err
}

// posicionOf is a snapshot row as the API shows it.
func posicionOf(r ranked.Row, nombre string) Posicion {
	p := Posicion{Posicion: int64(r.Posicion), ID: r.Jugador, Nombre: nombre, Puntaje: int64(r.Puntaje),
		Exactos: int64(r.Exactos), Aciertos: int64(r.Aciertos), Bonus: int64(r.Bonus)}
	if r.Anterior != 0 {
		anterior := int64(r.Anterior)
		p.PosicionAnterior = &anterior
	}
	return p
}

// filasAt are the rows at the given filas (sorted) of the table at v: the snapshot's, then the
// newcomers' (no points, the shared last rank, in the order they registered). A player without
// a published name (gone since) is left out, as a join would.
func (s *StandingsStore) filasAt(ctx context.Context, v Version, table *ranked.Table, nuevos []int64, filas []int64) ([]Fila, error) {
	ids := make([]int64, 0, len(filas))
	for _, f := range filas {
		switch {
		case f >= 1 && f <= table.Len():
			ids = append(ids, table.Row(f).Jugador)
		case f > table.Len() && f-table.Len() <= int64(len(nuevos)):
			ids = append(ids, nuevos[f-table.Len()-1])
		}
	}
	names, err := s.names(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Fila, 0, len(filas))
	for _, f := range filas {
		var p Posicion
		switch {
		case f >= 1 && f <= table.Len():
			p = posicionOf(table.Row(f), "")
		case f > table.Len() && f-table.Len() <= int64(len(nuevos)):
			p = Posicion{Posicion: v.PosicionCeros, ID: nuevos[f-table.Len()-1]}
		default:
			continue
		}
		nombre, ok := names[p.ID]
		if !ok {
			continue
		}
		p.Nombre = nombre
		out = append(out, Fila{Posicion: p, Fila: f})
	}
	return out, nil
}

// Page reads one page of the table at v: the snapshot's rows in the range, then the newcomers
// (no points, the shared last rank, in the order they registered) where the page reaches past
// the snapshot.
func (s *StandingsStore) Page(ctx context.Context, v Version, pagina, porPagina int) (Pagina, error) {
	p := Pagina{Torneo: v.Torneo, Version: v.ID, Pagina: pagina, PorPagina: porPagina, Posiciones: []Posicion{}}
	table, nuevos, err := s.at(ctx, v)
	if err != nil {
		return p, err
	}
	p.Total = table.Len() + int64(len(nuevos))
	desde := int64(pagina-1) * int64(porPagina)
	filas := make([]int64, 0, porPagina)
	for f := desde + 1; f <= min(desde+int64(porPagina), p.Total); f++ {
		filas = append(filas, f)
	}
	rows, err := s.filasAt(ctx, v, table, nuevos, filas)
	for _, r := range rows {
		p.Posiciones = append(p.Posiciones, r.Posicion)
	}
	return p, err
}

// at is the table at v, decoded, and for the current tournament the newcomers who follow it.
func (s *StandingsStore) at(ctx context.Context, v Version) (*ranked.Table, []int64, error) {
	table, err := s.table(ctx, v.ID)
	if err != nil || v.Jugadores == 0 {
		return table, nil, err
	}
	nuevos, err := s.newcomers(ctx, table, v.Tabla, v.Jugadores)
	return table, nuevos, err
}

// Player reads one player's place at v and the page of porPagina rows that holds it. Players
// registered after the snapshot are looked for up to the newest (not only up to v's last
// player): a player who just signed in finds their place at once.
func (s *StandingsStore) Player(ctx context.Context, v Tabla, actual bool, id int64, porPagina int) (MiPosicion, error) {
	var m MiPosicion
	table, err := s.table(ctx, v.ID)
	if err != nil {
		return m, err
	}
	if fila, ok := table.Find(id); ok {
		p := posicionOf(table.Row(fila), "")
		return MiPosicion{Posicion: p.Posicion, Puntaje: p.Puntaje, Exactos: p.Exactos, Aciertos: p.Aciertos,
			Pagina: (fila-1)/int64(porPagina) + 1, PosicionAnterior: p.PosicionAnterior, Bonus: p.Bonus}, nil
	}
	if !actual {
		return m, ErrNoPlayer
	}
	nuevos, err := s.newcomers(ctx, table, v, math.MaxInt64)
	if err != nil {
		return m, err
	}
	antes, esta := slices.BinarySearch(nuevos, id)
	if !esta {
		return m, ErrNoPlayer
	}
	m.Posicion = v.PosicionCeros
	m.Pagina = (v.Filas+int64(antes))/int64(porPagina) + 1
	return m, nil
}
