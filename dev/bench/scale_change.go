package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A change of one match's result (entered, corrected or deleted) timed until EVERY page of the
// standings shows it, beside bareScoreMatch from the same state.

// changeFigures: the end-to-end times (Subject) and the bare SQL's (Reference), and where each
// went.
type changeFigures struct {
	durationFigures
	FirstPage   []time.Duration // to page 1 alone at the new version
	Tx          scoringTx       // scoring's transactions during the runs: the points rows, written after the table is carried
	BarePoints  []time.Duration // the bare SQL's points and totals
	BareRanking []time.Duration // the bare SQL's snapshot, ranked (its last bareRankingStatements)
}

// Behind is how long the points rows were still being written after every page showed the
// change: their transaction starts once the carried table is on page 1 (0 when the table was
// ranked after them).
func (c changeFigures) Behind() time.Duration {
	return max(0, medianDuration(c.FirstPage)+c.Tx.Mean()-medianDuration(c.Subject))
}

// pages is how many pages the table has.
func (p standingsPage) pages() int {
	if p.PorPagina < 1 {
		return 1
	}
	return max(1, (p.Total+p.PorPagina-1)/p.PorPagina)
}

// getJSON asks url (with the cookie, unless "") and decodes its answer into v.
func getJSON(url, cookie string, v any) error {
	body, err := send(http.MethodGet, url, cookie, "", http.StatusOK)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}

// playerPoints is a player's points in the current tournament by the source of truth
// (predictions and results), whatever scoring keeps: what /api/posiciones/yo must show.
const playerPoints = `
	SELECT coalesce(sum(puntos), 0) FROM (` + newPoints + `) n
	 WHERE jugador_id = @jugador AND torneo_id = (SELECT id FROM fixtures.torneos WHERE actual)`

// changeToEveryPage changes the result of partido to score (nil: deletes it) as the organiser
// and times until page 1 moves to a new version, then the last page, a middle page and
// /api/posiciones/yo of a player whose points the change moves all answer at it. Before the
// change, from the same state, the bare SQL makes the same change and scores it, rolled back.
func (s *scaleRunner) changeToEveryPage(ctx context.Context, partido int64, score *[2]int) (changeFigures, error) {
	var f changeFigures
	for range max(1, s.cfg.ScoringRepeats) {
		if err := s.timeChange(ctx, partido, score, &f); err != nil {
			return f, err
		}
	}
	return f, nil
}

func (s *scaleRunner) timeChange(ctx context.Context, partido int64, score *[2]int, f *changeFigures) error {
	old, err := matchResult(ctx, s.db, partido)
	if err != nil {
		return err
	}
	if old == nil && score == nil {
		return fmt.Errorf("match %d has no result to delete", partido)
	}
	// Someone whose points the change moves: an exact hit of the new score, or of the deleted one.
	exact := score
	if exact == nil {
		exact = old
	}
	var watcherID int64
	if err := s.db.QueryRow(ctx, `
		SELECT jugador_id FROM predictions.apuestas
		 WHERE partido_id = $1 AND goles_local = $2 AND goles_visitante = $3
		 ORDER BY jugador_id DESC LIMIT 1`, partido, exact[0], exact[1]).Scan(&watcherID); err != nil {
		return fmt.Errorf("a player who predicted %d-%d: %w", exact[0], exact[1], err)
	}
	watcher, err := s.session(ctx, watcherID)
	if err != nil {
		return err
	}

	args := pgx.NamedArgs{"criterio": s.criterio, "partido": partido, "zona": displayZone}
	var change, method, body string
	switch {
	case score == nil:
		change, method, body = `DELETE FROM fixtures.resultados WHERE partido_id = @partido`, http.MethodDelete, `{"forzar":true}`
	case old == nil:
		change, method = `INSERT INTO fixtures.resultados (partido_id, goles_local, goles_visitante) VALUES (@partido, @local, @visitante)`, http.MethodPut
	default:
		change, method = `UPDATE fixtures.resultados SET goles_local = @local, goles_visitante = @visitante WHERE partido_id = @partido`, http.MethodPut
	}
	if score != nil {
		args["local"], args["visitante"] = score[0], score[1]
		body = fmt.Sprintf(`{"goles_local":%d,"goles_visitante":%d}`, score[0], score[1])
	}
	each, err := s.timeBareSteps(ctx, append([]string{change}, bareScoreMatch...), args)
	if err != nil {
		return err
	}
	points, ranking := splitBare(each[1:]) // the change itself is the state, not the scoring
	f.BarePoints, f.BareRanking = append(f.BarePoints, points), append(f.BareRanking, ranking)
	f.Reference = append(f.Reference, points+ranking)
	if err := clearReference(ctx, s.db); err != nil {
		return err
	}

	var before standingsPage
	if err := getJSON(s.cfg.ScoringBase+"/api/posiciones", "", &before); err != nil {
		return err
	}
	txBefore, err := scoringMetrics(s.cfg.ScoringAdmin)
	if err != nil {
		return err
	}
	start := time.Now()
	if _, err := send(method, fmt.Sprintf("%s/api/partidos/%d/resultado", s.cfg.FixturesBase, partido), s.admin.Cookie, body, http.StatusOK); err != nil {
		return err
	}
	var want int
	if err := s.db.QueryRow(ctx, playerPoints, pgx.NamedArgs{"criterio": s.criterio, "zona": displayZone, "jugador": watcherID}).Scan(&want); err != nil {
		return err
	}

	var now standingsPage
	if err := s.waitFor(start, s.cfg.ScoringBase+"/api/posiciones", "", &now, func() bool { return now.Version != before.Version }); err != nil {
		return err
	}
	f.FirstPage = append(f.FirstPage, time.Since(start))
	for _, pagina := range []int{now.pages(), max(1, now.pages()/2)} {
		var page standingsPage
		if err := s.waitFor(start, fmt.Sprintf("%s/api/posiciones?pagina=%d", s.cfg.ScoringBase, pagina), "", &page,
			func() bool { return page.Version >= now.Version }); err != nil {
			return err
		}
	}
	var mine struct {
		Puntaje int `json:"puntaje"`
	}
	if err := s.waitFor(start, s.cfg.ScoringBase+"/api/posiciones/yo", watcher.Cookie, &mine, func() bool { return mine.Puntaje == want }); err != nil {
		return fmt.Errorf("player %d's place (%d points, want %d): %w", watcherID, mine.Puntaje, want, err)
	}
	f.Subject = append(f.Subject, time.Since(start))

	// The table is carried and published ahead of the points rows, which scoring writes next:
	// the change is done when they are (its scoring time below counts them), and the next
	// change starts from a quiet state.
	if err := s.settle(ctx); err != nil {
		return err
	}
	txAfter, err := scoringMetrics(s.cfg.ScoringAdmin)
	if err != nil {
		return err
	}
	f.Tx = f.Tx.add(txAfter.sub(txBefore))
	return nil
}

// clearReference clears what a bare SQL reference leaves behind, rolled back, before the next
// change is timed: its rows stay in the tables, dead, and the pages it wrote stay dirty in
// memory, to be vacuumed and written out while the change is timed (at 2 million players the
// full rescore leaves 32 million points rows and several GiB of pages), which a Prode that never
// ran the reference would not pay for. Vacuum removes the rows and a checkpoint writes the
// pages; the time it takes is logged, not measured.
func clearReference(ctx context.Context, db *pgxpool.Pool) error {
	start := time.Now()
	if _, err := db.Exec(ctx, `VACUUM scoring.puntos, scoring.totales_torneo, scoring.totales_fecha, scoring.tabla_filas, scoring.tablas`); err != nil {
		return fmt.Errorf("vacuum after the bare SQL: %w", err)
	}
	if _, err := db.Exec(ctx, `CHECKPOINT`); err != nil {
		return fmt.Errorf("checkpoint after the bare SQL: %w", err)
	}
	log.Printf("scale: the bare SQL's rolled-back rows vacuumed and its pages written in %s", time.Since(start).Round(time.Millisecond))
	return nil
}

// settle waits until scoring has applied every outbox event and page 1 of the standings has kept
// its version for a second: a change timed next is then the only one that moves it (the
// restarted scoring process builds and publishes its tables as it starts).
func (s *scaleRunner) settle(ctx context.Context) error {
	start := time.Now()
	if err := s.waitScored(ctx, start); err != nil {
		return err
	}
	var last standingsPage
	for stable := time.Now(); time.Since(stable) < time.Second; time.Sleep(100 * time.Millisecond) {
		var now standingsPage
		if err := getJSON(s.cfg.ScoringBase+"/api/posiciones", "", &now); err != nil {
			return err
		}
		if now.Version != last.Version {
			last, stable = now, time.Now()
		}
		if time.Since(start) > s.patience.Result {
			return fmt.Errorf("the standings' version still moving %s after the rescore", s.patience.Result)
		}
	}
	return nil
}

// matchResult is a match's result now (nil: none).
func matchResult(ctx context.Context, db *pgxpool.Pool, partido int64) (*[2]int, error) {
	var score [2]int
	err := db.QueryRow(ctx, `SELECT goles_local, goles_visitante FROM fixtures.resultados WHERE partido_id = $1`, partido).Scan(&score[0], &score[1])
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &score, err
}

// waitFor asks url (with the cookie, unless "") into v until done says it shows the change,
// up to the patience for a result from start.
func (s *scaleRunner) waitFor(start time.Time, url, cookie string, v any, done func() bool) error {
	for {
		if err := getJSON(url, cookie, v); err != nil {
			return err
		}
		if done() {
			return nil
		}
		if time.Since(start) > s.patience.Result {
			return fmt.Errorf("GET %s: not at the change %s after it", url, s.patience.Result)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
