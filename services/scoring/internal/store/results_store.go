package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/wire"
)

// Prediccion is the signed-in player's prediction of a finished match.
type Prediccion struct {
	GolesLocal     int `json:"goles_local"`
	GolesVisitante int `json:"goles_visitante"`
}

// Finalizado is a finished match with, for one player, their prediction and points.
type Finalizado struct {
	Partido          int64
	Local, Visitante wire.Equipo
	Categoria        string
	Inicio           time.Time
	Resultado        wire.Resultado
	Apuesta          *Prediccion
	Puntos           *int
}

// ResultsStore reads finished matches.
type ResultsStore struct{ pool *pgxpool.Pool }

// NewResultsStore wraps a pool connected as prode_scoring.
func NewResultsStore(pool *pgxpool.Pool) *ResultsStore { return &ResultsStore{pool: pool} }

// Finished lists a tournament's matches that have a result, most recent kick-off first, with player's
// prediction and points (player 0: nobody's).
func (s *ResultsStore) Finished(ctx context.Context, torneo, player int64) ([]Finalizado, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT p.id, p.nombre_local, p.nombre_visitante, p.bandera_local, p.bandera_visitante,
		       p.categoria, p.inicio,
		       r.goles_local, r.goles_visitante, r.goles_local_alargue, r.goles_visitante_alargue,
		       r.penales_local, r.penales_visitante,
		       a.goles_local, a.goles_visitante, pt.puntos
		  FROM fixtures.resultados_publicados r
		  JOIN fixtures.partidos_publicados p ON p.id = r.partido_id
		  LEFT JOIN predictions.apuestas_publicadas a ON a.partido_id = r.partido_id AND a.jugador_id = $1
		  LEFT JOIN scoring.puntos pt ON pt.partido_id = r.partido_id AND pt.jugador_id = $1
		 WHERE p.torneo_id = $2
		 ORDER BY p.inicio DESC, p.id DESC`, player, torneo)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Finalizado, error) {
		var f Finalizado
		var apuestaLocal, apuestaVisitante *int
		err := row.Scan(&f.Partido, &f.Local.Nombre, &f.Visitante.Nombre, &f.Local.Bandera, &f.Visitante.Bandera,
			&f.Categoria, &f.Inicio,
			&f.Resultado.GolesLocal, &f.Resultado.GolesVisitante, &f.Resultado.GolesLocalAlargue,
			&f.Resultado.GolesVisitanteAlargue, &f.Resultado.PenalesLocal, &f.Resultado.PenalesVisitante,
			&apuestaLocal, &apuestaVisitante, &f.Puntos)
		if apuestaLocal != nil && apuestaVisitante != nil {
			f.Apuesta = &Prediccion{GolesLocal: *apuestaLocal, GolesVisitante: *apuestaVisitante}
		}
		return f, err
	})
}
