package store

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/events"
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

// buildTotals reads what a tournament's players have, to be ranked into a snapshot (ranked.Rank):
// for the current tournament ($4) every player registered up to $2, for another one those who
// have points in it (who played it, a match or a bonus question), in player order. puntaje
// includes the bonus points, bonus is that part of it; del_dia is the points of the last
// matchday (the kick-off dates, in zone $3, of the finished matches), which the previous rank
// leaves out.
const buildTotals = `
	WITH fechas AS (
	    SELECT id, (inicio AT TIME ZONE $3)::date AS fecha
	      FROM fixtures.partidos_publicados
	     WHERE torneo_id = $1 AND finalizado
	), del_dia AS (
	    SELECT jugador_id, puntaje AS puntos
	      FROM scoring.totales_fecha
	     WHERE torneo_id = $1 AND fecha = (SELECT max(fecha) FROM fechas)
	)
	SELECT j.id, coalesce(t.puntaje, 0), coalesce(t.exactos, 0), coalesce(t.aciertos, 0),
	       coalesce(t.bonus, 0), coalesce(d.puntos, 0)
	  FROM players.jugadores_publicados j
	  LEFT JOIN scoring.totales_torneo t ON t.torneo_id = $1 AND t.jugador_id = j.id
	  LEFT JOIN del_dia d ON d.jugador_id = j.id
	 WHERE j.id <= $2
	   AND ($4 OR EXISTS (SELECT FROM scoring.puntos pt WHERE pt.torneo_id = $1 AND pt.jugador_id = j.id)
	           OR EXISTS (SELECT FROM scoring.puntos_bonus b WHERE b.torneo_id = $1 AND b.jugador_id = j.id))
	 ORDER BY j.id`

// Build ranks a tournament's table from the totals into a new snapshot, in one transaction that
// sees one moment of the totals and the players, and deletes the snapshots before the previous
// one (a reader may still be paging through the previous one). Builds of one tournament take
// turns (takeTurn), and wait for the points rows of the tables carried ahead of them. zone is the
// display time zone, which dates the matchdays. The ranking is done here, in memory, and
// stored as one value: the cost of a snapshot is reading the totals once.
func (s *StandingsStore) Build(ctx context.Context, torneo int64, actual bool, zone string) (Tabla, error) {
	turn, err := s.takeTurn(ctx, torneo)
	if err != nil {
		return Tabla{}, err
	}
	// The totals must hold every result the newest snapshot carried ahead of its rows.
	if err := turn.waitForRows(ctx); err != nil {
		return Tabla{}, err
	}
	defer turn.release()
	t := Tabla{Torneo: torneo}
	var table *ranked.Table
	err = pgx.BeginTxFunc(ctx, turn.conn, pgx.TxOptions{IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		r, err := readRanking(ctx, tx, torneo, actual, zone)
		if err != nil {
			return err
		}
		t.JugadoresHasta = r.jugadoresHasta
		table = ranked.Rank(r.totals, r.several)
		return insertSnapshot(ctx, tx, &t, table, r.contados, r.last)
	})
	if err == nil {
		s.snapshots.Keep(t.ID, table)
	}
	return t, err
}

// ranking is what a build ranks, read at one moment: the totals of the players up to
// jugadoresHasta (in player order), what they count and their matchdays.
type ranking struct {
	jugadoresHasta int64
	totals         []ranked.Total
	contados       Contados   // the points rows' scores, and the zone their matchdays are dated in
	last           *time.Time // the last matchday (nil: none)
	several        bool       // more than one matchday: a previous rank
}

// readRanking reads what a build of tournament torneo ranks, through tx (a repeatable read).
func readRanking(ctx context.Context, tx pgx.Tx, torneo int64, actual bool, zone string) (ranking, error) {
	var r ranking
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM players.jugadores_publicados`).Scan(&r.jugadoresHasta); err != nil {
		return r, err
	}
	states, err := readMatchStates(ctx, tx, torneo, zone)
	if err != nil {
		return r, err
	}
	// The zone the matchday totals are dated in now (scoring.estado): a start in another
	// zone dates them again (PointsStore.DateMatchdays), maybe while this build reads them.
	var dated string
	if err := tx.QueryRow(ctx, `SELECT coalesce(zona, '') FROM scoring.estado`).Scan(&dated); err != nil {
		return r, err
	}
	// The totals are the points rows' sums, read at the same moment as their scores.
	r.contados = countedBy(states, dated)
	r.last, r.several = matchdays(states)
	rows, err := tx.Query(ctx, buildTotals, torneo, r.jugadoresHasta, zone, actual)
	if err != nil {
		return r, err
	}
	// Room for every player up front: appending would copy two million totals several
	// times over and leave the copies to the garbage collector.
	r.totals = make([]ranked.Total, 0, r.jugadoresHasta)
	var x ranked.Total
	_, err = pgx.ForEachRow(rows, []any{&x.Jugador, &x.Puntaje, &x.Exactos, &x.Aciertos, &x.Bonus, &x.DelDia}, func() error {
		r.totals = append(r.totals, x)
		return nil
	})
	return r, err
}

// insertSnapshot stores table as tournament t.Torneo's newest snapshot, with what it counts and
// the matchday its previous rank leaves out, and deletes the snapshots before the previous one
// (a reader may still be paging through the previous one). It fills in t's id and counts.
func insertSnapshot(ctx context.Context, tx pgx.Tx, t *Tabla, table *ranked.Table, contados Contados, fechaDelDia *time.Time) error {
	t.Filas, t.PosicionCeros = table.Len(), table.PositionOfZeros()
	if err := tx.QueryRow(ctx, `SELECT nextval('scoring.tablas_id_seq')`).Scan(&t.ID); err != nil {
		return err
	}
	if err := writeSnapshot(ctx, tx, *t, table, contados, fechaDelDia); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `
		DELETE FROM scoring.tablas_compactas
		 WHERE torneo_id = $1
		   AND id < (SELECT max(id) FROM scoring.tablas_compactas WHERE torneo_id = $1 AND id < $2)`, t.Torneo, t.ID); err != nil {
		return err
	}
	// The leagues' readers are remembered with the snapshot they read (grupos).
	return notifyAccess(ctx, tx, events.TableChanged(t.Torneo))
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

// MatchdayPage reads one page of a matchday's own table: the points of the tournament's
// matches that kicked off on fecha (in the display time zone), for the players who scored
// that day, ranked like the general table.
func (s *StandingsStore) MatchdayPage(ctx context.Context, torneo, version int64, fecha time.Time, pagina, porPagina int) (Pagina, error) {
	p := Pagina{Torneo: torneo, Version: version, Pagina: pagina, PorPagina: porPagina, Posiciones: []Posicion{}}
	rows, err := s.pool.Query(ctx, `
		SELECT count(*) OVER (), rank() OVER (ORDER BY t.puntaje DESC), t.jugador_id, j.nombre,
		       t.puntaje, t.exactos, t.aciertos
		  FROM scoring.totales_fecha t
		  JOIN players.jugadores_publicados j ON j.id = t.jugador_id
		 WHERE t.torneo_id = $1 AND t.fecha = $2 AND t.puntaje > 0
		 ORDER BY t.puntaje DESC, t.exactos DESC, t.aciertos DESC, t.jugador_id
		 LIMIT $3 OFFSET $4`, torneo, fecha, porPagina, int64(pagina-1)*int64(porPagina))
	if err != nil {
		return p, err
	}
	p.Posiciones, err = pgx.AppendRows(p.Posiciones, rows, func(row pgx.CollectableRow) (Posicion, error) {
		var r Posicion
		err := row.Scan(&p.Total, &r.Posicion, &r.ID, &r.Nombre, &r.Puntaje, &r.Exactos, &r.Aciertos)
		return r, err
	})
	if err != nil || len(p.Posiciones) > 0 || pagina == 1 {
		return p, err
	}
	// Past the last page: the count still says how many there are.
	err = s.pool.QueryRow(ctx, `SELECT count(*) FROM scoring.totales_fecha WHERE torneo_id = $1 AND fecha = $2 AND puntaje > 0`,
		torneo, fecha).Scan(&p.Total)
	return p, err
}

// Fecha is a matchday of a tournament: a date with finished matches, and its best players.
type Fecha struct {
	Fecha     string    `json:"fecha"`
	Partidos  int64     `json:"partidos"`
	Ganadores []Ganador `json:"ganadores"`
	Empatados int64     `json:"empatados"`
}

// Ganador is one of a matchday's best players ("ganador de la fecha").
type Ganador struct {
	ID      int64  `json:"id"`
	Nombre  string `json:"nombre"`
	Puntaje int64  `json:"puntaje"`
}

// Fechas is GET /api/posiciones/fechas.
type Fechas struct {
	Torneo  int64   `json:"torneo"`
	Version int64   `json:"version"`
	Fechas  []Fecha `json:"fechas"`
}

// maxGanadores bounds the names of a matchday's winners: when more tie, the answer says how many.
const maxGanadores = 10

// Matchdays lists a tournament's matchdays, newest first, each with its best players (those
// who scored the most that day, ties share it; nobody when nobody scored). Each day's best
// are read from the front of totales_fecha's index, not from every point.
func (s *StandingsStore) Matchdays(ctx context.Context, torneo, version int64, zone string) (Fechas, error) {
	f := Fechas{Torneo: torneo, Version: version, Fechas: []Fecha{}}
	rows, err := s.pool.Query(ctx, `
		WITH dias AS (
		    SELECT (inicio AT TIME ZONE $2)::date AS fecha, count(*) AS partidos
		      FROM fixtures.partidos_publicados
		     WHERE torneo_id = $1 AND finalizado
		     GROUP BY 1
		), mejor AS (
		    SELECT d.fecha, d.partidos,
		           (SELECT max(puntaje) FROM scoring.totales_fecha t WHERE t.torneo_id = $1 AND t.fecha = d.fecha) AS puntaje
		      FROM dias d
		)
		SELECT m.fecha::text, m.partidos,
		       (SELECT count(*) FROM scoring.totales_fecha t
		         WHERE t.torneo_id = $1 AND t.fecha = m.fecha AND t.puntaje = m.puntaje AND m.puntaje > 0),
		       coalesce(g.ganadores, '[]')
		  FROM mejor m
		  LEFT JOIN LATERAL (
		      SELECT json_agg(json_build_object('id', t.jugador_id, 'nombre', j.nombre, 'puntaje', t.puntaje)
		                      ORDER BY t.exactos DESC, t.aciertos DESC, t.jugador_id) AS ganadores
		        FROM (SELECT * FROM scoring.totales_fecha t
		               WHERE t.torneo_id = $1 AND t.fecha = m.fecha AND t.puntaje = m.puntaje AND m.puntaje > 0
		               ORDER BY t.exactos DESC, t.aciertos DESC, t.jugador_id
		               LIMIT $3) t
		        JOIN players.jugadores_publicados j ON j.id = t.jugador_id
		  ) g ON true
		 ORDER BY m.fecha DESC`, torneo, zone, maxGanadores)
	if err != nil {
		return f, err
	}
	f.Fechas, err = pgx.AppendRows(f.Fechas, rows, func(row pgx.CollectableRow) (Fecha, error) {
		var d Fecha
		err := row.Scan(&d.Fecha, &d.Partidos, &d.Empatados, &d.Ganadores)
		return d, err
	})
	return f, err
}
