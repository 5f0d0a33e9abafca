package store

import "context"

// ScoreQuestions recomputes the bonus points of every answer to the given bonus questions
// from their current right answers, and records eventos as processed, in one transaction
// serialised per question by advisory locks. It returns the questions' tournaments, whose
// standings changed.
//
// As with matches (ScoreMatches), points are a pure function of the current right answer: an
// answer among the question's right options earns the question's puntos, any other 0, and a
// question without a right answer gives no points at all. The new points go into a temporary
// table, the difference between new and old is added to scoring.totales_torneo (puntaje and
// its part bonus), and the questions' rows of scoring.puntos_bonus are replaced. Entering,
// correcting, clearing or replaying a right answer in any order therefore ends where a
// recomputation from scratch would.
func (s *PointsStore) ScoreQuestions(ctx context.Context, preguntas []int64, eventos []int64) (torneos []int64, err error) {
	return s.rescore(ctx, rescore{lock: "scoring.pregunta", keys: preguntas, eventos: eventos,
		torneos: `SELECT DISTINCT torneo_id FROM fixtures.preguntas_publicadas WHERE id = ANY($1) ORDER BY 1`,
		scratch: `bonus_calculado (pregunta_id bigint NOT NULL, torneo_id bigint NOT NULL, jugador_id bigint NOT NULL, puntos integer NOT NULL)`,
		steps: []statement{
			// New points: every answer of the questions that have a right answer.
			{args: []any{preguntas}, sql: `
				INSERT INTO pg_temp.bonus_calculado (pregunta_id, torneo_id, jugador_id, puntos)
				SELECT r.pregunta_id, q.torneo_id, r.jugador_id,
				       CASE WHEN EXISTS (SELECT FROM fixtures.respuestas_correctas_publicadas c
				                          WHERE c.pregunta_id = r.pregunta_id AND c.opcion_id = r.opcion_id)
				            THEN q.puntos ELSE 0 END
				  FROM predictions.respuestas_publicadas r
				  JOIN fixtures.preguntas_publicadas q ON q.id = r.pregunta_id
				 WHERE r.pregunta_id = ANY($1)
				   AND EXISTS (SELECT FROM fixtures.respuestas_correctas_publicadas c WHERE c.pregunta_id = r.pregunta_id)`},
			// Totals move by new minus old points, locked in key order like the matches' scorer
			// locks them (the two may run at once for one player).
			{args: []any{preguntas}, sql: `
				INSERT INTO scoring.totales_torneo AS t (torneo_id, jugador_id, puntaje, bonus)
				SELECT torneo_id, jugador_id, sum(puntos), sum(puntos)
				  FROM (SELECT torneo_id, jugador_id, puntos FROM pg_temp.bonus_calculado
				        UNION ALL
				        SELECT torneo_id, jugador_id, -puntos FROM scoring.puntos_bonus WHERE pregunta_id = ANY($1)) d
				 GROUP BY torneo_id, jugador_id
				HAVING sum(puntos) <> 0
				 ORDER BY torneo_id, jugador_id
				ON CONFLICT (torneo_id, jugador_id) DO UPDATE
				   SET puntaje = t.puntaje + EXCLUDED.puntaje,
				       bonus   = t.bonus   + EXCLUDED.bonus`},
			{args: []any{preguntas}, sql: `DELETE FROM scoring.puntos_bonus WHERE pregunta_id = ANY($1)`},
			{sql: `
				INSERT INTO scoring.puntos_bonus (pregunta_id, torneo_id, jugador_id, puntos)
				SELECT pregunta_id, torneo_id, jugador_id, puntos FROM pg_temp.bonus_calculado`},
		},
	})
}
