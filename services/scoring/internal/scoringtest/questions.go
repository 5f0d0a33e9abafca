package scoringtest

import (
	"context"

	"github.com/jackc/pgx/v5"

	"prode/platform/events"
	"prode/platform/testenv"
)

// Question creates a bonus question of a tournament worth puntos, with its options, as the
// organiser does (fixtures.preguntas and fixtures.pregunta_opciones). It returns the question's
// id and its options' ids, in order.
func (e *Env) Question(torneo int64, puntos int, opciones ...string) (int64, []int64) {
	e.t.Helper()
	ctx := context.Background()
	var id int64
	if err := e.Admin.QueryRow(ctx, `INSERT INTO fixtures.preguntas (torneo_id, texto, puntos) VALUES ($1, $2, $3) RETURNING id`,
		torneo, "¿Pregunta?", puntos).Scan(&id); err != nil {
		e.t.Fatalf("create question: %v", err)
	}
	var ids []int64
	for i, texto := range opciones {
		var o int64
		if err := e.Admin.QueryRow(ctx, `INSERT INTO fixtures.pregunta_opciones (pregunta_id, texto, orden) VALUES ($1, $2, $3) RETURNING id`,
			id, texto, i+1).Scan(&o); err != nil {
			e.t.Fatalf("create option: %v", err)
		}
		ids = append(ids, o)
	}
	return id, ids
}

// Answer stores a player's answer to a question as the predictions service would.
func (e *Env) Answer(p testenv.Player, pregunta, opcion int64) {
	e.t.Helper()
	e.Exec(`
		INSERT INTO predictions.respuestas (jugador_id, pregunta_id, opcion_id) VALUES ($1, $2, $3)
		ON CONFLICT (jugador_id, pregunta_id) DO UPDATE SET opcion_id = EXCLUDED.opcion_id, actualizada = now()`,
		p.ID, pregunta, opcion)
}

// SetRightAnswer enters or corrects a question's right answer (a set of options) as fixtures
// does: the answer and an outbox event in one transaction, with pg_notify. It returns the
// event id.
func (e *Env) SetRightAnswer(pregunta int64, opciones ...int64) int64 {
	e.t.Helper()
	return e.outboxEvent("pregunta_id", pregunta, events.RespuestaCorrectaCargada, func(tx pgx.Tx) error {
		ctx := context.Background()
		if _, err := tx.Exec(ctx, `DELETE FROM fixtures.respuestas_correctas WHERE pregunta_id = $1`, pregunta); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO fixtures.respuestas_correctas (pregunta_id, opcion_id) SELECT $1, unnest($2::bigint[])`,
			pregunta, opciones)
		return err
	})
}

// ClearRightAnswer removes a question's right answer as fixtures does, with its outbox event.
func (e *Env) ClearRightAnswer(pregunta int64) int64 {
	e.t.Helper()
	return e.outboxExec("pregunta_id", pregunta, events.RespuestaCorrectaBorrada,
		`DELETE FROM fixtures.respuestas_correctas WHERE pregunta_id = $1`, pregunta)
}

// BonusKey names an answer's bonus points: a question and a player.
type BonusKey struct{ Pregunta, Jugador int64 }

// StoredBonusPoints reads scoring.puntos_bonus.
func (e *Env) StoredBonusPoints() map[BonusKey]int {
	e.t.Helper()
	var k BonusKey
	var p int
	return stored(e, `SELECT pregunta_id, jugador_id, puntos FROM scoring.puntos_bonus`,
		[]any{&k.Pregunta, &k.Jugador, &p}, func() (BonusKey, int) { return k, p })
}

// StoredBonusTotals reads the bonus column of scoring.totales_torneo summed over tournaments,
// leaving out zeros.
func (e *Env) StoredBonusTotals() map[int64]int {
	e.t.Helper()
	var id int64
	var b int
	return stored(e, `SELECT jugador_id, sum(bonus)::integer FROM scoring.totales_torneo GROUP BY jugador_id HAVING sum(bonus) <> 0`,
		[]any{&id, &b}, func() (int64, int) { return id, b })
}
