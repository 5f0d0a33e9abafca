package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// The bonus questions' answers (predictions.respuestas). The questions, their options and
// right answers are fixtures' (fixtures.preguntas_publicadas and its sibling views); the lock
// (cierre) is enforced here, in the write statement, with the database clock.

// Opcion is one option of a bonus question.
type Opcion struct {
	ID    int64  `json:"id"`
	Texto string `json:"texto"`
}

// Pregunta is a bonus question as a player sees it.
type Pregunta struct {
	ID          int64      `json:"id"`
	Torneo      int64      `json:"torneo"`
	Texto       string     `json:"texto"`
	Puntos      int        `json:"puntos"`
	Cierre      *time.Time `json:"cierre"`
	Cerrada     bool       `json:"cerrada"`
	Opciones    []Opcion   `json:"opciones"`
	MiRespuesta *int64     `json:"mi_respuesta"`
	Correctas   []int64    `json:"correctas"`
}

// Respuesta is a player's answer as the API shows it.
type Respuesta struct {
	Pregunta int64 `json:"pregunta"`
	Opcion   int64 `json:"opcion"`
}

// Conteo is how many players chose one option.
type Conteo struct {
	Opcion   int64  `json:"opcion"`
	Texto    string `json:"texto"`
	Cantidad int64  `json:"cantidad"`
}

// QuestionState says why an answer was not written.
type QuestionState struct {
	Exists   bool
	OfOption bool // the option is one of the question's
	Closed   bool // by the database clock (a question without a lock yet is closed)
}

// Questions lists a tournament's questions (the current one when torneo is 0) with the
// player's own answer (none for player 0). cerrada is the database clock's answer, the same
// the write statement checks.
func (s *Store) Questions(ctx context.Context, torneo, playerID int64) ([]Pregunta, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT q.id, q.torneo_id, q.texto, q.puntos, q.cierre, coalesce(now() >= q.cierre, true),
		       coalesce((SELECT json_agg(json_build_object('id', o.id, 'texto', o.texto) ORDER BY o.orden, o.id)
		                   FROM fixtures.pregunta_opciones_publicadas o WHERE o.pregunta_id = q.id), '[]'),
		       r.opcion_id,
		       coalesce((SELECT array_agg(c.opcion_id ORDER BY c.opcion_id)
		                   FROM fixtures.respuestas_correctas_publicadas c WHERE c.pregunta_id = q.id), '{}')
		  FROM fixtures.preguntas_publicadas q
		  LEFT JOIN predictions.respuestas r ON r.pregunta_id = q.id AND r.jugador_id = $2
		 WHERE q.torneo_id = CASE WHEN $1 = 0 THEN (SELECT id FROM fixtures.torneos_publicados WHERE actual) ELSE $1 END
		 ORDER BY q.orden, q.id`, torneo, playerID)
	if err != nil {
		return nil, err
	}
	return pgx.AppendRows(make([]Pregunta, 0), rows, func(row pgx.CollectableRow) (Pregunta, error) {
		var p Pregunta
		err := row.Scan(&p.ID, &p.Torneo, &p.Texto, &p.Puntos, &p.Cierre, &p.Cerrada, &p.Opciones, &p.MiRespuesta, &p.Correctas)
		if p.Cierre != nil {
			*p.Cierre = p.Cierre.UTC()
		}
		return p, err
	})
}

// SaveAnswer writes the player's answer to a question (one row per player and question). The
// SELECT yields no row unless the option is the question's, the database clock is before the
// question's lock, and the session is still open (the route checks only the token's
// signature, as for predictions): after the lock nothing is written. created says whether the
// answer is new.
func (s *Store) SaveAnswer(ctx context.Context, sessionID string, playerID, pregunta, opcion int64) (Respuesta, bool, error) {
	var r Respuesta
	var created bool
	err := s.pool.QueryRow(ctx, `
		INSERT INTO predictions.respuestas (jugador_id, pregunta_id, opcion_id)
		SELECT $1, q.id, o.id
		  FROM fixtures.preguntas_publicadas q
		  JOIN fixtures.pregunta_opciones_publicadas o ON o.pregunta_id = q.id AND o.id = $3
		 WHERE q.id = $2 AND now() < q.cierre
		   AND EXISTS (SELECT 1 FROM players.sesiones_vigentes s WHERE s.id = $4)
		ON CONFLICT (jugador_id, pregunta_id) DO UPDATE
		   SET opcion_id = EXCLUDED.opcion_id, actualizada = now()
		RETURNING pregunta_id, opcion_id, (xmax = 0)`,
		playerID, pregunta, opcion, sessionID).Scan(&r.Pregunta, &r.Opcion, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, ErrNoRows
	}
	return r, created, err
}

// Question says whether a question exists, whether opcion is one of its options, and whether
// it is closed by the database clock.
func (s *Store) Question(ctx context.Context, pregunta, opcion int64) (QuestionState, error) {
	st := QuestionState{Exists: true}
	err := s.pool.QueryRow(ctx, `
		SELECT coalesce(now() >= q.cierre, true),
		       EXISTS (SELECT FROM fixtures.pregunta_opciones_publicadas o WHERE o.pregunta_id = q.id AND o.id = $2)
		  FROM fixtures.preguntas_publicadas q WHERE q.id = $1`, pregunta, opcion).Scan(&st.Closed, &st.OfOption)
	if errors.Is(err, pgx.ErrNoRows) {
		return QuestionState{}, nil
	}
	return st, err
}

// Counts returns how many players chose each option of a question, in the options' order,
// and how many answered; nothing (ok false) while the question is open by the database clock,
// judged in the same statement.
func (s *Store) Counts(ctx context.Context, pregunta int64) (conteos []Conteo, total int64, ok bool, err error) {
	rows, err := s.pool.Query(ctx, `
		SELECT o.id, o.texto, count(r.jugador_id)
		  FROM fixtures.preguntas_publicadas q
		  JOIN fixtures.pregunta_opciones_publicadas o ON o.pregunta_id = q.id
		  LEFT JOIN predictions.respuestas r ON r.pregunta_id = q.id AND r.opcion_id = o.id
		 WHERE q.id = $1 AND coalesce(now() >= q.cierre, true)
		 GROUP BY o.id, o.texto, o.orden
		 ORDER BY o.orden, o.id`, pregunta)
	if err != nil {
		return nil, 0, false, err
	}
	conteos, err = pgx.AppendRows(make([]Conteo, 0), rows, pgx.RowToStructByPos[Conteo])
	for _, c := range conteos {
		total += c.Cantidad
	}
	return conteos, total, len(conteos) > 0, err
}
