// Package store holds the scoring service's SQL. Scoring reads other services' data only
// through their published views (fixtures.resultados_publicados, fixtures.partidos_publicados,
// fixtures.eventos_publicados, fixtures.preguntas_publicadas,
// fixtures.respuestas_correctas_publicadas, predictions.apuestas_publicadas,
// predictions.respuestas_publicadas, players.jugadores_publicados)
// and writes only the scoring schema. Transactions live here.
package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Evento is an outbox event of fixtures not yet applied by scoring: a match's (Partido) or a
// bonus question's (Pregunta); the other one is 0.
type Evento struct {
	ID       int64
	Partido  int64
	Pregunta int64
	Creado   time.Time
}

// PointsStore computes points and keeps the consumer's bookkeeping.
type PointsStore struct {
	pool *pgxpool.Pool
	zone string // the display time zone, which dates the matchdays
}

// NewPointsStore wraps a pool connected as prode_scoring; zone (DISPLAY_TIMEZONE) dates the
// matchdays of scoring.totales_fecha.
func NewPointsStore(pool *pgxpool.Pool, zone *time.Location) *PointsStore {
	return &PointsStore{pool: pool, zone: zone.String()}
}

// ScoreMatches recomputes the points of every prediction of the given matches from their
// current results, and records eventos as processed, in one transaction serialised per match
// by advisory locks. It returns the tournaments of those matches, whose standings changed.
//
// Points are a pure function of the current result: the new points go into a temporary table,
// the difference between new and old points is added to scoring.totales, and the matches' rows
// of scoring.puntos are replaced. Entering, correcting, deleting (no result row: no points) or
// replaying a result in any order therefore ends where a recomputation from scratch would.
// Several matches in one transaction cost one pass over the predictions instead of one each:
// a tournament's worth is scored about as fast as the bare SQL would (docs/benchmarks.md).
//
// criterio says which score counts in knock-out matches (a category not starting with
// "Grupo"): "noventa" the score after 90 minutes, "alargue" the score after extra time when
// there was extra time. Penalties never count.
func (s *PointsStore) ScoreMatches(ctx context.Context, partidos []int64, criterio string, eventos []int64) (torneos []int64, err error) {
	return s.rescore(ctx, rescore{lock: "scoring.partido", keys: partidos, eventos: eventos,
		// A match's tournament, whether or not it has a result now.
		torneos: `SELECT DISTINCT torneo_id FROM fixtures.partidos_publicados WHERE id = ANY($1) ORDER BY 1`,
		scratch: `puntos_calculados (partido_id bigint NOT NULL, torneo_id bigint NOT NULL, jugador_id bigint NOT NULL,
			puntos smallint NOT NULL, exacto boolean NOT NULL, acierto boolean NOT NULL, huella bigint NOT NULL)`,
		steps: []statement{
			// The score that counts now, read once: the points below are computed from it, and it
			// stays recorded with the newest event applied, so that a snapshot carried ahead of
			// the next change (StandingsStore.CarryAhead) knows these are the rows it replaces. (Read
			// again in a later statement, a result changed meanwhile would be recorded beside
			// points computed from the one before.) Its fingerprint (huella) is 0 here when it has
			// a result, and summed below from the predictions its points are computed from.
			{args: []any{partidos, criterio, eventos}, sql: `
				INSERT INTO scoring.partidos_contados AS pc (partido_id, torneo_id, goles_local, goles_visitante, conocido, evento, huella)
				SELECT p.id, p.torneo_id, c.local, c.visitante, true,
				       coalesce((SELECT max(e.id) FROM fixtures.eventos_publicados e
				                  WHERE e.partido_id = p.id
				                    AND (e.id = ANY($3) OR EXISTS (SELECT FROM scoring.eventos_procesados x WHERE x.evento_id = e.id))), 0),
				       CASE WHEN c.local IS NOT NULL THEN 0 END
				  FROM fixtures.partidos_publicados p
				  LEFT JOIN (` + countedScores + `) c ON c.partido_id = p.id
				 WHERE p.id = ANY($1)
				ON CONFLICT (partido_id) DO UPDATE
				   SET goles_local = EXCLUDED.goles_local, goles_visitante = EXCLUDED.goles_visitante,
				       conocido = true, evento = EXCLUDED.evento, huella = EXCLUDED.huella`},
			// New points: every prediction of the matches against the score that counts. No result,
			// no points.
			{args: []any{partidos}, sql: `
				INSERT INTO pg_temp.puntos_calculados (partido_id, torneo_id, jugador_id, puntos, exacto, acierto, huella)
				SELECT a.partido_id, c.torneo_id, a.jugador_id,
				       scoring.puntos_de(a.goles_local, a.goles_visitante, c.goles_local, c.goles_visitante),
				       a.goles_local = c.goles_local AND a.goles_visitante = c.goles_visitante,
				       sign(a.goles_local - a.goles_visitante) = sign(c.goles_local - c.goles_visitante),
				       scoring.huella_de(a.jugador_id, a.goles_local, a.goles_visitante)
				  FROM predictions.apuestas_publicadas a
				  JOIN scoring.partidos_contados c ON c.partido_id = a.partido_id AND c.goles_local IS NOT NULL
				 WHERE a.partido_id = ANY($1)`},
			// The fingerprint of the predictions those points come from (scoring 000009), read
			// from the same rows: a carry checks the predictions it reads against it.
			{sql: `
				UPDATE scoring.partidos_contados c SET huella = n.huella
				  FROM (SELECT partido_id, ` + sumOfHuellas + ` AS huella FROM pg_temp.puntos_calculados GROUP BY partido_id) n
				 WHERE c.partido_id = n.partido_id`},
			// Totals, per tournament, move by new minus old points. Rows are locked in key order so
			// that two transactions scoring different matches cannot deadlock.
			{args: []any{partidos}, sql: `
				INSERT INTO scoring.totales_torneo AS t (torneo_id, jugador_id, puntaje, exactos, aciertos)
				SELECT torneo_id, jugador_id, sum(puntos), sum(exacto), sum(acierto)
				  FROM (SELECT torneo_id, jugador_id, puntos::integer AS puntos, exacto::integer AS exacto, acierto::integer AS acierto
				          FROM pg_temp.puntos_calculados
				        UNION ALL
				        SELECT torneo_id, jugador_id, -puntos, -(exacto::integer), -(acierto::integer)
				          FROM scoring.puntos WHERE partido_id = ANY($1)) d
				 GROUP BY torneo_id, jugador_id
				HAVING sum(puntos) <> 0 OR sum(exacto) <> 0 OR sum(acierto) <> 0
				 ORDER BY torneo_id, jugador_id
				ON CONFLICT (torneo_id, jugador_id) DO UPDATE
				   SET puntaje  = t.puntaje  + EXCLUDED.puntaje,
				       exactos  = t.exactos  + EXCLUDED.exactos,
				       aciertos = t.aciertos + EXCLUDED.aciertos`},
			// The same per matchday: a finished match's kick-off does not move, so its old points
			// are dated as its new ones.
			{args: []any{partidos, s.zone}, sql: `
				INSERT INTO scoring.totales_fecha AS t (torneo_id, fecha, jugador_id, puntaje, exactos, aciertos)
				SELECT d.torneo_id, (p.inicio AT TIME ZONE $2)::date, d.jugador_id, sum(d.puntos), sum(d.exacto), sum(d.acierto)
				  FROM (SELECT partido_id, torneo_id, jugador_id, puntos::integer AS puntos, exacto::integer AS exacto, acierto::integer AS acierto
				          FROM pg_temp.puntos_calculados
				        UNION ALL
				        SELECT partido_id, torneo_id, jugador_id, -puntos, -(exacto::integer), -(acierto::integer)
				          FROM scoring.puntos WHERE partido_id = ANY($1)) d
				  JOIN fixtures.partidos_publicados p ON p.id = d.partido_id
				 GROUP BY 1, 2, 3
				HAVING sum(d.puntos) <> 0 OR sum(d.exacto) <> 0 OR sum(d.acierto) <> 0
				 ORDER BY 1, 2, 3
				ON CONFLICT (torneo_id, fecha, jugador_id) DO UPDATE
				   SET puntaje  = t.puntaje  + EXCLUDED.puntaje,
				       exactos  = t.exactos  + EXCLUDED.exactos,
				       aciertos = t.aciertos + EXCLUDED.aciertos`},
			{args: []any{partidos}, sql: `DELETE FROM scoring.puntos WHERE partido_id = ANY($1)`},
			{sql: `
				INSERT INTO scoring.puntos (partido_id, torneo_id, jugador_id, puntos, exacto, acierto)
				SELECT partido_id, torneo_id, jugador_id, puntos, exacto, acierto FROM pg_temp.puntos_calculados`},
		},
	})
}

// Pending returns up to limit outbox events scoring has not applied, oldest first, but for
// except (being applied meanwhile). Event ids can commit out of order, so this is the set
// difference, not a high-water mark.
func (s *PointsStore) Pending(ctx context.Context, limit int, except []int64) ([]Evento, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT e.id, coalesce(e.partido_id, 0), coalesce(e.pregunta_id, 0), e.creado
		  FROM fixtures.eventos_publicados e
		 WHERE NOT EXISTS (SELECT FROM scoring.eventos_procesados p WHERE p.evento_id = e.id)
		   AND e.id <> ALL($2::bigint[])
		 ORDER BY e.id
		 LIMIT $1`, limit, append([]int64{}, except...))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Evento, error) {
		var e Evento
		err := row.Scan(&e.ID, &e.Partido, &e.Pregunta, &e.Creado)
		return e, err
	})
}

// OutboxLag is the age in seconds of the oldest event not applied yet (0 when none), by the
// database clock.
func (s *PointsStore) OutboxLag(ctx context.Context) (float64, error) {
	var lag float64
	err := s.pool.QueryRow(ctx, `
		SELECT coalesce(greatest(extract(epoch FROM clock_timestamp() - min(e.creado)), 0), 0)::float8
		  FROM fixtures.eventos_publicados e
		 WHERE NOT EXISTS (SELECT FROM scoring.eventos_procesados p WHERE p.evento_id = e.id)`).Scan(&lag)
	return lag, err
}

// Criterio is the knock-out setting the stored points were computed with.
func (s *PointsStore) Criterio(ctx context.Context) (string, error) {
	var criterio string
	err := s.pool.QueryRow(ctx, `SELECT criterio FROM scoring.estado`).Scan(&criterio)
	return criterio, err
}

// SetCriterio records the knock-out setting once every match was rescored with it.
func (s *PointsStore) SetCriterio(ctx context.Context, criterio string) error {
	_, err := s.pool.Exec(ctx, `UPDATE scoring.estado SET criterio = $1`, criterio)
	return err
}

// DateMatchdays makes scoring.totales_fecha follow the display time zone: when the points were
// dated in another zone (or never, after the upgrade that brought matchdays), every point is
// dated again from scoring.puntos, in one transaction. Scoring calls it at start.
func (s *PointsStore) DateMatchdays(ctx context.Context) (redated bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var zona *string
		if err := tx.QueryRow(ctx, `SELECT zona FROM scoring.estado FOR UPDATE`).Scan(&zona); err != nil {
			return err
		}
		if zona != nil && *zona == s.zone {
			return nil
		}
		redated = true
		if _, err := tx.Exec(ctx, `DELETE FROM scoring.totales_fecha`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO scoring.totales_fecha (torneo_id, fecha, jugador_id, puntaje, exactos, aciertos)
			SELECT pt.torneo_id, (p.inicio AT TIME ZONE $1)::date, pt.jugador_id,
			       sum(pt.puntos), count(*) FILTER (WHERE pt.exacto), count(*) FILTER (WHERE pt.acierto)
			  FROM scoring.puntos pt
			  JOIN fixtures.partidos_publicados p ON p.id = pt.partido_id
			 GROUP BY 1, 2, 3`, s.zone); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE scoring.estado SET zona = $1`, s.zone)
		return err
	})
	return redated, err
}

// Scored lists what a full rescore must go over: every match that has a result or still has
// points, and every bonus question that has a right answer or still has points.
func (s *PointsStore) Scored(ctx context.Context) (partidos, preguntas []int64, err error) {
	partidos, err = ids(ctx, s.pool, `
		SELECT partido_id FROM fixtures.resultados_publicados
		UNION
		SELECT partido_id FROM scoring.puntos
		ORDER BY 1`)
	if err != nil {
		return nil, nil, err
	}
	preguntas, err = ids(ctx, s.pool, `
		SELECT pregunta_id FROM fixtures.respuestas_correctas_publicadas
		UNION
		SELECT pregunta_id FROM scoring.puntos_bonus
		ORDER BY 1`)
	return partidos, preguntas, err
}
