package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/events"
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

// Tabla is a standings snapshot (scoring.tablas): a tournament's table ranked at one moment.
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
type StandingsStore struct{ pool *pgxpool.Pool }

// NewStandingsStore wraps a pool connected as prode_scoring.
func NewStandingsStore(pool *pgxpool.Pool) *StandingsStore { return &StandingsStore{pool: pool} }

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
		  FROM scoring.tablas
		 ORDER BY torneo_id, id DESC`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Tabla])
}

// buildRows ranks a tournament's players into snapshot $2: for the current tournament ($5)
// every player registered up to $3, for another one those who have points in it (who played
// it, a match or a bonus question). puntaje includes the bonus points, bonus is that part of
// it. Competition ranking by puntaje (10, 10, 8 -> 1, 1, 3); display order by exact hits,
// right outcomes, then registration (id), so that a player registered later, without points,
// always comes after the snapshot's rows. posicion_anterior is the rank without the points of
// the last matchday (the kick-off dates, in zone $4, of the finished matches), once there are
// two matchdays.
const buildRows = `
	WITH fechas AS (
	    SELECT id, (inicio AT TIME ZONE $4)::date AS fecha
	      FROM fixtures.partidos_publicados
	     WHERE torneo_id = $1 AND finalizado
	), ultima AS (
	    SELECT max(fecha) AS fecha, count(DISTINCT fecha) > 1 AS con_anterior FROM fechas
	), del_dia AS (
	    SELECT jugador_id, puntaje AS puntos
	      FROM scoring.totales_fecha
	     WHERE torneo_id = $1 AND fecha = (SELECT fecha FROM ultima)
	), miembros AS (
	    SELECT j.id AS jugador_id,
	           coalesce(t.puntaje, 0)  AS puntaje,
	           coalesce(t.exactos, 0)  AS exactos,
	           coalesce(t.aciertos, 0) AS aciertos,
	           coalesce(t.bonus, 0)    AS bonus,
	           coalesce(d.puntos, 0)   AS del_dia
	      FROM players.jugadores_publicados j
	      LEFT JOIN scoring.totales_torneo t ON t.torneo_id = $1 AND t.jugador_id = j.id
	      LEFT JOIN del_dia d ON d.jugador_id = j.id
	     WHERE j.id <= $3
	       AND ($5 OR EXISTS (SELECT FROM scoring.puntos pt WHERE pt.torneo_id = $1 AND pt.jugador_id = j.id)
	               OR EXISTS (SELECT FROM scoring.puntos_bonus b WHERE b.torneo_id = $1 AND b.jugador_id = j.id))
	)
	INSERT INTO scoring.tabla_filas (tabla_id, fila, posicion, jugador_id, puntaje, exactos, aciertos, posicion_anterior, bonus)
	SELECT $2,
	       row_number() OVER (ORDER BY puntaje DESC, exactos DESC, aciertos DESC, jugador_id),
	       rank() OVER (ORDER BY puntaje DESC),
	       jugador_id, puntaje, exactos, aciertos,
	       CASE WHEN (SELECT con_anterior FROM ultima) THEN rank() OVER (ORDER BY puntaje - del_dia DESC) END,
	       bonus
	  FROM miembros`

// Build ranks a tournament's table into a new snapshot, in one transaction that sees one
// moment of the totals and the players, and deletes the snapshots before the previous one
// (a reader may still be paging through the previous one). Builds of one tournament take
// turns. zone is the display time zone, which dates the matchdays.
func (s *StandingsStore) Build(ctx context.Context, torneo int64, actual bool, zone string) (Tabla, error) {
	t := Tabla{Torneo: torneo}
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		// The lock is taken before the transaction's first read, so the snapshot it reads was
		// taken after the previous build of this tournament committed.
		if err := lockKeys(ctx, tx, "scoring.tabla", torneo); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM players.jugadores_publicados`).Scan(&t.JugadoresHasta); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `
			INSERT INTO scoring.tablas (torneo_id, jugadores_hasta, filas, posicion_ceros)
			VALUES ($1, $2, 0, 1) RETURNING id`, torneo, t.JugadoresHasta).Scan(&t.ID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, buildRows, torneo, t.ID, t.JugadoresHasta, zone, actual)
		if err != nil {
			return err
		}
		t.Filas = tag.RowsAffected()
		// Without points a player shares the rank of the players without points, or comes
		// after everyone.
		if err := tx.QueryRow(ctx, `
			UPDATE scoring.tablas
			   SET filas = $2,
			       posicion_ceros = coalesce((SELECT min(posicion) FROM scoring.tabla_filas
			                                   WHERE tabla_id = $1 AND puntaje = 0), $2 + 1)
			 WHERE id = $1
			RETURNING posicion_ceros`, t.ID, t.Filas).Scan(&t.PosicionCeros); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			DELETE FROM scoring.tablas
			 WHERE torneo_id = $1
			   AND id < (SELECT max(id) FROM scoring.tablas WHERE torneo_id = $1 AND id < $2)`, torneo, t.ID)
		if err != nil {
			return err
		}
		// The leagues' readers are remembered with the snapshot they read (grupos).
		return notifyAccess(ctx, tx, events.TableChanged(torneo))
	})
	return t, err
}

// newcomers are the players who follow a snapshot's rows: registered after it (up to the
// version's last player), or registered just before it but committed after it was read (ids
// are handed out before commit, so up to a few in flight can be missed; the window covers
// them without a scan of every player).
//
// Only the window's players up to the snapshot's last one can be among its rows: each of them is
// looked up through tabla_filas_jugador (at most 1000 index lookups), and OFFSET 0 keeps
// PostgreSQL from planning that NOT EXISTS as an anti-join or a hash of the whole snapshot. Until
// autovacuum next analyzes tabla_filas, up to a minute after each build, its statistics do not
// know the newest snapshot and put it at one row; an anti-join planned on that estimate can
// compare every candidate with every row of the snapshot (1000 × 100,000 rows: seconds for
// each page that lists a newcomer, after every result).
const newcomers = `
	SELECT j.id, j.nombre
	  FROM players.jugadores_publicados j
	 WHERE j.id > $2 - 1000 AND j.id <= $3
	   AND (j.id > $2 OR NOT EXISTS (SELECT FROM scoring.tabla_filas f WHERE f.tabla_id = $1 AND f.jugador_id = j.id OFFSET 0))`

// Page reads one page of the table at v: the snapshot's rows in the range, then the newcomers
// (no points, the shared last rank, in the order they registered) where the page reaches past
// the snapshot.
func (s *StandingsStore) Page(ctx context.Context, v Version, pagina, porPagina int) (Pagina, error) {
	p := Pagina{Torneo: v.Torneo, Version: v.ID, Pagina: pagina, PorPagina: porPagina, Posiciones: []Posicion{}}
	desde := int64(pagina-1) * int64(porPagina)
	var nuevos int64
	if v.Jugadores > 0 {
		err := s.pool.QueryRow(ctx, `SELECT count(*) FROM (`+newcomers+`) n`, v.ID, v.JugadoresHasta, v.Jugadores).Scan(&nuevos)
		if err != nil {
			return p, err
		}
	}
	p.Total = v.Filas + nuevos
	rows, err := s.pool.Query(ctx, `
		SELECT f.posicion, f.jugador_id, j.nombre, f.puntaje, f.exactos, f.aciertos, f.posicion_anterior, f.bonus
		  FROM scoring.tabla_filas f
		  JOIN players.jugadores_publicados j ON j.id = f.jugador_id
		 WHERE f.tabla_id = $1 AND f.fila > $2 AND f.fila <= $2 + $3
		 ORDER BY f.fila`, v.ID, desde, porPagina)
	if err != nil {
		return p, err
	}
	if p.Posiciones, err = pgx.AppendRows(p.Posiciones, rows, pgx.RowToStructByPos[Posicion]); err != nil {
		return p, err
	}
	faltan := porPagina - len(p.Posiciones)
	if nuevos == 0 || faltan == 0 || desde+int64(porPagina) <= v.Filas {
		return p, nil
	}
	rows, err = s.pool.Query(ctx, `SELECT id, nombre FROM (`+newcomers+`) n ORDER BY id OFFSET $4 LIMIT $5`,
		v.ID, v.JugadoresHasta, v.Jugadores, max(0, desde-v.Filas), faltan)
	if err != nil {
		return p, err
	}
	p.Posiciones, err = pgx.AppendRows(p.Posiciones, rows, func(row pgx.CollectableRow) (Posicion, error) {
		r := Posicion{Posicion: v.PosicionCeros}
		err := row.Scan(&r.ID, &r.Nombre)
		return r, err
	})
	return p, err
}

// Player reads one player's place at v and the page of porPagina rows that holds it. Players
// registered after the snapshot are looked for up to the newest (not only up to v's last
// player): a player who just signed in finds their place at once.
func (s *StandingsStore) Player(ctx context.Context, v Tabla, actual bool, id int64, porPagina int) (MiPosicion, error) {
	var m MiPosicion
	err := s.pool.QueryRow(ctx, `
		SELECT posicion, puntaje, exactos, aciertos, (fila - 1) / $3 + 1, posicion_anterior, bonus
		  FROM scoring.tabla_filas
		 WHERE tabla_id = $1 AND jugador_id = $2`, v.ID, id, porPagina).
		Scan(&m.Posicion, &m.Puntaje, &m.Exactos, &m.Aciertos, &m.Pagina, &m.PosicionAnterior, &m.Bonus)
	if !errors.Is(err, pgx.ErrNoRows) || !actual {
		if errors.Is(err, pgx.ErrNoRows) {
			return m, ErrNoPlayer
		}
		return m, err
	}
	var antes int64
	var esta bool
	err = s.pool.QueryRow(ctx, `
		SELECT count(*) FILTER (WHERE id < $4), coalesce(bool_or(id = $4), false)
		  FROM (`+newcomers+`) n`, v.ID, v.JugadoresHasta, int64(1<<62), id).Scan(&antes, &esta)
	if err != nil {
		return m, err
	}
	if !esta {
		return m, ErrNoPlayer
	}
	m.Posicion = v.PosicionCeros
	m.Pagina = (v.Filas+antes)/int64(porPagina) + 1
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
