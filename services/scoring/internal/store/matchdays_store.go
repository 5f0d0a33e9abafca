package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

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
