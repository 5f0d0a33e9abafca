package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
)

// A bonus question (issue 16) that every registered player answered, and the time from its
// right answer entered by the organiser to the standings showing its points, beside the bare
// SQL making the same change.

// bonusQuestion is the loaded question: the player with id j answered Opciones[j mod
// len(Opciones)], every player up to LastPlayer (so a quarter of them per option).
type bonusQuestion struct {
	Torneo, ID int64
	Puntos     int64
	Opciones   []int64
	Answers    int64
	LastPlayer int64
}

// bonusPuntos is the question's points: one exact result's worth, enough to reorder the top of
// the table.
const bonusPuntos = 10

// loadBonusQuestion creates a question of the current tournament through the organiser's API
// (options, audit, the default lock), then loads every registered player's answer in one
// statement, as the answers would stand at the lock.
func (b *bench) loadBonusQuestion(ctx context.Context, admin player) (bonusQuestion, error) {
	q := bonusQuestion{Puntos: bonusPuntos}
	if err := b.db.QueryRow(ctx, `SELECT id FROM fixtures.torneos WHERE actual`).Scan(&q.Torneo); err != nil {
		return q, fmt.Errorf("the current tournament: %w", err)
	}
	body := fmt.Sprintf(`{"texto":"¿Quién sale campeón?","puntos":%d,"opciones":["Argentina","Francia","Croacia","Marruecos"]}`, q.Puntos)
	answer, err := send(http.MethodPost, fmt.Sprintf("%s/api/torneos/%d/preguntas", b.cfg.FixturesBase, q.Torneo), admin.Cookie, body, http.StatusCreated)
	if err != nil {
		return q, err
	}
	var created struct {
		ID       int64 `json:"id"`
		Opciones []struct {
			ID int64 `json:"id"`
		} `json:"opciones"`
	}
	if err := json.Unmarshal(answer, &created); err != nil {
		return q, fmt.Errorf("POST preguntas answered %s: %w", answer, err)
	}
	q.ID = created.ID
	for _, o := range created.Opciones {
		q.Opciones = append(q.Opciones, o.ID)
	}
	if len(q.Opciones) < 2 {
		return q, fmt.Errorf("the question has %d options: the runs alternate two", len(q.Opciones))
	}
	err = b.db.QueryRow(ctx, `
		WITH respondidas AS (
		    INSERT INTO predictions.respuestas (jugador_id, pregunta_id, opcion_id)
		    SELECT j.id, $1, ($2::bigint[])[(j.id % cardinality($2::bigint[]))::integer + 1]
		      FROM players.jugadores j
		    RETURNING jugador_id
		)
		SELECT count(*), coalesce(max(jugador_id), 0) FROM respondidas`, q.ID, q.Opciones).Scan(&q.Answers, &q.LastPlayer)
	if err != nil {
		return q, fmt.Errorf("answers: %w", err)
	}
	_, err = b.db.Exec(ctx, `ANALYZE predictions.respuestas`)
	return q, err
}

// bonusOf is the bonus the standings must show for a player when option right is the right
// answer.
func (q bonusQuestion) bonusOf(jugador int64, right int) int64 {
	if jugador <= q.LastPlayer && jugador%int64(len(q.Opciones)) == int64(right) {
		return q.Puntos
	}
	return 0
}

// shows says whether page is a version after before whose every row has the bonus points of
// option right being the right answer: a new version alone could be a table ranked before the
// points were in.
func (q bonusQuestion) shows(page standingsPage, before int64, right int) bool {
	if page.Version == before {
		return false
	}
	for _, p := range page.Posiciones {
		if p.Bonus != q.bonusOf(p.ID, right) {
			return false
		}
	}
	return true
}

func readStandings(url string) (standingsPage, error) {
	var page standingsPage
	body, err := get(url)
	if err != nil {
		return page, err
	}
	return page, json.Unmarshal(body, &page)
}

// The bare SQL of a right answer (see scoring_benchmarks.go for the rules of the bare SQL): the
// right option written as fixtures writes it, then what scoring's store.ScoreQuestions does,
// on the base tables and without its temporary table, locks or outbox bookkeeping, then the
// table ranked into a snapshot as after a match.
const newBonus = `
	SELECT r.pregunta_id, q.torneo_id, r.jugador_id,
	       CASE WHEN EXISTS (SELECT FROM fixtures.respuestas_correctas c
	                          WHERE c.pregunta_id = r.pregunta_id AND c.opcion_id = r.opcion_id)
	            THEN q.puntos ELSE 0 END AS puntos
	  FROM predictions.respuestas r JOIN fixtures.preguntas q ON q.id = r.pregunta_id
	 WHERE r.pregunta_id = @pregunta
	   AND EXISTS (SELECT FROM fixtures.respuestas_correctas c WHERE c.pregunta_id = @pregunta)`

var bareScoreQuestion = []string{
	`DELETE FROM fixtures.respuestas_correctas WHERE pregunta_id = @pregunta`,
	`INSERT INTO fixtures.respuestas_correctas (pregunta_id, opcion_id) VALUES (@pregunta, @opcion)`,
	`INSERT INTO scoring.totales_torneo AS t (torneo_id, jugador_id, puntaje, bonus)
	 SELECT torneo_id, jugador_id, sum(puntos), sum(puntos)
	   FROM (SELECT torneo_id, jugador_id, puntos FROM (` + newBonus + `) n
	         UNION ALL
	         SELECT torneo_id, jugador_id, -puntos FROM scoring.puntos_bonus WHERE pregunta_id = @pregunta) d
	  GROUP BY 1, 2
	 HAVING sum(puntos) <> 0
	 ON CONFLICT (torneo_id, jugador_id) DO UPDATE
	    SET puntaje = t.puntaje + EXCLUDED.puntaje, bonus = t.bonus + EXCLUDED.bonus`,
	`DELETE FROM scoring.puntos_bonus WHERE pregunta_id = @pregunta`,
	`INSERT INTO scoring.puntos_bonus (pregunta_id, torneo_id, jugador_id, puntos)
	 SELECT pregunta_id, torneo_id, jugador_id, puntos FROM (` + newBonus + `) n`,
	newSnapshot,
	rankTable,
}

// bonusToStandings enters the question's right answer through the fixtures API (as the
// organiser) and times until GET /api/posiciones answers a new version with its points; the
// right answer alternates between the first two options, so that after the first run every run
// is a correction that takes the points from a quarter of the players and gives them to
// another. Before each run the bare SQL makes the very change the PUT is about to make, from
// the same state, and is rolled back: the first an entry, the others corrections.
func (b *bench) bonusToStandings(ctx context.Context, admin player, q bonusQuestion) (durationFigures, error) {
	var f durationFigures
	url := fmt.Sprintf("%s/api/torneos/%d/preguntas/%d/respuesta", b.cfg.FixturesBase, q.Torneo, q.ID)
	standings := b.cfg.ScoringBase + "/api/posiciones"
	for i := range b.cfg.ScoringRepeats {
		right := i % 2
		d, err := b.timeBare(ctx, bareScoreQuestion, pgx.NamedArgs{"pregunta": q.ID, "opcion": q.Opciones[right]})
		if err != nil {
			return f, err
		}
		f.Reference = append(f.Reference, d)
		before, err := readStandings(standings)
		if err != nil {
			return f, err
		}
		start := time.Now()
		if err := put(url, admin.Cookie, fmt.Sprintf(`{"opciones":[%d]}`, q.Opciones[right])); err != nil {
			return f, err
		}
		for {
			now, err := readStandings(standings)
			if err != nil {
				return f, err
			}
			if q.shows(now, before.Version, right) {
				break
			}
			if time.Since(start) > 2*time.Minute {
				return f, fmt.Errorf("question %d: standings without its points 2 min after its right answer (version %d, before %d)", q.ID, now.Version, before.Version)
			}
			time.Sleep(2 * time.Millisecond)
		}
		f.Subject = append(f.Subject, time.Since(start))
	}
	return f, nil
}

// bonusBenchmark loads the question and its answers, then times its right answer to the
// standings; it returns the times, scoring's own transactions meanwhile and the answers.
func (b *bench) bonusBenchmark(ctx context.Context, admin player) (durationFigures, scoringTx, int64, error) {
	q, err := b.loadBonusQuestion(ctx, admin)
	if err != nil {
		return durationFigures{}, scoringTx{}, 0, err
	}
	before, err := scoringMetrics(b.cfg.ScoringAdmin)
	if err != nil {
		return durationFigures{}, scoringTx{}, q.Answers, err
	}
	f, err := b.bonusToStandings(ctx, admin, q)
	if err != nil {
		return f, scoringTx{}, q.Answers, err
	}
	after, err := scoringMetrics(b.cfg.ScoringAdmin)
	return f, after.sub(before), q.Answers, err
}
