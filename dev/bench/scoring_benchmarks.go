package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// The bare SQL the scoring benchmarks compare with: the same points, written to the same
// tables, as plain statements on the base tables (no views, temporary table, advisory lock,
// outbox bookkeeping or cache), in a transaction that is rolled back so that the stack's
// state stays as the service left it.
const (
	// countingScore is the score that counts for each match with a result (@criterio), with the
	// match's tournament and matchday (@zona).
	countingScore = `
	    SELECT r.partido_id, p.torneo_id, (p.inicio AT TIME ZONE @zona)::date AS fecha,
	           CASE WHEN @criterio = 'alargue' AND p.categoria NOT LIKE 'Grupo%' AND r.goles_local_alargue IS NOT NULL
	                THEN r.goles_local_alargue ELSE r.goles_local END AS local,
	           CASE WHEN @criterio = 'alargue' AND p.categoria NOT LIKE 'Grupo%' AND r.goles_visitante_alargue IS NOT NULL
	                THEN r.goles_visitante_alargue ELSE r.goles_visitante END AS visitante
	      FROM fixtures.resultados r JOIN fixtures.partidos p ON p.id = r.partido_id`
	// newPoints is every prediction's points against the counting score.
	newPoints = `
	    SELECT a.partido_id, c.torneo_id, c.fecha, a.jugador_id,
	           scoring.puntos_de(a.goles_local, a.goles_visitante, c.local, c.visitante) AS puntos,
	           a.goles_local = c.local AND a.goles_visitante = c.visitante AS exacto,
	           sign(a.goles_local - a.goles_visitante) = sign(c.local - c.visitante) AS acierto
	      FROM predictions.apuestas a JOIN (` + countingScore + `) c ON c.partido_id = a.partido_id`
	// matchDelta is @partido's new minus old points, per player, with the match's matchday.
	matchDelta = `
	    SELECT torneo_id, fecha, jugador_id, puntos::integer AS puntos, exacto::integer AS exacto, acierto::integer AS acierto
	      FROM (` + newPoints + `) n WHERE partido_id = @partido
	    UNION ALL
	    SELECT pt.torneo_id, (p.inicio AT TIME ZONE @zona)::date, pt.jugador_id, -pt.puntos, -(pt.exacto::integer), -(pt.acierto::integer)
	      FROM scoring.puntos pt JOIN fixtures.partidos p ON p.id = pt.partido_id WHERE pt.partido_id = @partido`
	// rankTable ranks the current tournament's every player into a new snapshot, as the
	// standings do after every change of the points (store.StandingsStore.Build, without the
	// movement), the bonus points' column included as Build writes it.
	rankTable = `
	INSERT INTO scoring.tabla_filas (tabla_id, fila, posicion, jugador_id, puntaje, exactos, aciertos, bonus)
	SELECT (SELECT max(id) FROM scoring.tablas),
	       row_number() OVER (ORDER BY coalesce(t.puntaje, 0) DESC, coalesce(t.exactos, 0) DESC, coalesce(t.aciertos, 0) DESC, j.id),
	       rank() OVER (ORDER BY coalesce(t.puntaje, 0) DESC), j.id,
	       coalesce(t.puntaje, 0), coalesce(t.exactos, 0), coalesce(t.aciertos, 0), coalesce(t.bonus, 0)
	  FROM players.jugadores j
	  LEFT JOIN scoring.totales_torneo t ON t.jugador_id = j.id
	       AND t.torneo_id = (SELECT id FROM fixtures.torneos WHERE actual)`
	newSnapshot = `
	INSERT INTO scoring.tablas (torneo_id, jugadores_hasta, filas, posicion_ceros)
	SELECT id, (SELECT max(id) FROM players.jugadores), 0, 1 FROM fixtures.torneos WHERE actual`
)

// bareScoreMatch scores one match (@partido): totals per tournament and per matchday move by new
// minus old points, the match's points are replaced, and the table is ranked into a snapshot.
// displayZone is the services' DISPLAY_TIMEZONE in the bench's stack (its default).
const displayZone = "America/Argentina/Buenos_Aires"

var bareScoreMatch = []string{`
	INSERT INTO scoring.totales_torneo AS t (torneo_id, jugador_id, puntaje, exactos, aciertos)
	SELECT torneo_id, jugador_id, sum(puntos), sum(exacto), sum(acierto) FROM (` + matchDelta + `) d
	 GROUP BY 1, 2
	HAVING sum(puntos) <> 0 OR sum(exacto) <> 0 OR sum(acierto) <> 0
	ON CONFLICT (torneo_id, jugador_id) DO UPDATE
	   SET puntaje = t.puntaje + EXCLUDED.puntaje, exactos = t.exactos + EXCLUDED.exactos,
	       aciertos = t.aciertos + EXCLUDED.aciertos`, `
	INSERT INTO scoring.totales_fecha AS t (torneo_id, fecha, jugador_id, puntaje, exactos, aciertos)
	SELECT torneo_id, fecha, jugador_id, sum(puntos), sum(exacto), sum(acierto) FROM (` + matchDelta + `) d
	 GROUP BY 1, 2, 3
	HAVING sum(puntos) <> 0 OR sum(exacto) <> 0 OR sum(acierto) <> 0
	ON CONFLICT (torneo_id, fecha, jugador_id) DO UPDATE
	   SET puntaje = t.puntaje + EXCLUDED.puntaje, exactos = t.exactos + EXCLUDED.exactos,
	       aciertos = t.aciertos + EXCLUDED.aciertos`,
	`DELETE FROM scoring.puntos WHERE partido_id = @partido`,
	`INSERT INTO scoring.puntos (partido_id, torneo_id, jugador_id, puntos, exacto, acierto)
	 SELECT partido_id, torneo_id, jugador_id, puntos, exacto, acierto FROM (` + newPoints + `) n WHERE partido_id = @partido`,
	newSnapshot,
	rankTable,
}

// bareRankingStatements: the last statements of bareScoreMatch and bareRescore, which rank the
// table into a new snapshot (the rest computes the points and totals).
const bareRankingStatements = 2

// splitBare splits the times of bareScoreMatch's statements into the points' and the ranking's.
func splitBare(each []time.Duration) (points, ranking time.Duration) {
	for i, d := range each {
		if i < len(each)-bareRankingStatements {
			points += d
		} else {
			ranking += d
		}
	}
	return points, ranking
}

// bareRescore recomputes every point and total from scratch, then ranks the table. Row deletes,
// not TRUNCATE: a live service must keep answering standings reads meanwhile, and TRUNCATE
// would lock them out.
var bareRescore = []string{
	`DELETE FROM scoring.puntos`,
	`DELETE FROM scoring.totales_torneo`,
	`DELETE FROM scoring.totales_fecha`,
	`INSERT INTO scoring.puntos (partido_id, torneo_id, jugador_id, puntos, exacto, acierto)
	 SELECT partido_id, torneo_id, jugador_id, puntos, exacto, acierto FROM (` + newPoints + `) n`,
	`INSERT INTO scoring.totales_torneo (torneo_id, jugador_id, puntaje, exactos, aciertos)
	 SELECT torneo_id, jugador_id, sum(puntos), sum(exacto::integer), sum(acierto::integer)
	   FROM scoring.puntos GROUP BY 1, 2`,
	`INSERT INTO scoring.totales_fecha (torneo_id, fecha, jugador_id, puntaje, exactos, aciertos)
	 SELECT pt.torneo_id, (p.inicio AT TIME ZONE @zona)::date, pt.jugador_id, sum(pt.puntos), sum(pt.exacto::integer), sum(pt.acierto::integer)
	   FROM scoring.puntos pt JOIN fixtures.partidos p ON p.id = pt.partido_id GROUP BY 1, 2, 3`,
	newSnapshot,
	rankTable,
}

// timeBare runs statements in one transaction and rolls it back; it returns how long they took.
func (b *bench) timeBare(ctx context.Context, statements []string, args pgx.NamedArgs) (time.Duration, error) {
	each, err := b.timeBareSteps(ctx, statements, args)
	var total time.Duration
	for _, d := range each {
		total += d
	}
	return total, err
}

// timeBareSteps runs statements in one transaction and rolls it back; it returns how long each
// took, so that a report can say where the time went (the points or the ranking).
func (b *bench) timeBareSteps(ctx context.Context, statements []string, args pgx.NamedArgs) ([]time.Duration, error) {
	tx, err := b.db.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // rolled back on purpose
	each := make([]time.Duration, 0, len(statements))
	for _, sql := range statements {
		start := time.Now()
		if _, err := tx.Exec(ctx, sql, args); err != nil {
			return nil, fmt.Errorf("bare SQL: %w", err)
		}
		each = append(each, time.Since(start))
	}
	return each, nil
}

// durationFigures compare the medians of a subject's and a reference's durations.
type durationFigures struct {
	Subject, Reference []time.Duration
}

func (d durationFigures) Ratio() float64 {
	return ratio(float64(medianDuration(d.Subject)), float64(medianDuration(d.Reference)))
}

// resultToStandings enters results for one match through the fixtures API (as the organiser)
// and times until GET /api/posiciones answers the new standings; between runs, the bare SQL
// scores the same match. Results alternate 1-0 and 0-1, so that every run changes the top
// of the table.
func (b *bench) resultToStandings(ctx context.Context, admin player, partido int64) (durationFigures, error) {
	var f durationFigures
	for i := range b.cfg.ScoringRepeats {
		score := [2]int{1, 0}
		if i%2 == 1 {
			score = [2]int{0, 1}
		}
		before, err := get(b.cfg.ScoringBase + "/api/posiciones")
		if err != nil {
			return f, err
		}
		start := time.Now()
		body := fmt.Sprintf(`{"goles_local":%d,"goles_visitante":%d}`, score[0], score[1])
		if err := put(fmt.Sprintf("%s/api/partidos/%d/resultado", b.cfg.FixturesBase, partido), admin.Cookie, body); err != nil {
			return f, err
		}
		for {
			now, err := get(b.cfg.ScoringBase + "/api/posiciones")
			if err != nil {
				return f, err
			}
			if !bytes.Equal(now, before) {
				break
			}
			if time.Since(start) > b.patience.Result {
				return f, fmt.Errorf("match %d: standings unchanged %s after its result", partido, b.patience.Result)
			}
			time.Sleep(2 * time.Millisecond)
		}
		f.Subject = append(f.Subject, time.Since(start))
		// The standings move before scoring writes the points rows (store.Carry): the bare SQL,
		// which writes the same rows, runs once they are written, never beside them.
		if err := b.waitScored(ctx, start); err != nil {
			return f, err
		}
		d, err := b.timeBare(ctx, bareScoreMatch, pgx.NamedArgs{"criterio": b.criterio, "partido": partido, "zona": displayZone})
		if err != nil {
			return f, err
		}
		f.Reference = append(f.Reference, d)
	}
	return f, nil
}

// fullRescore restarts the scoring service with the other knock-out setting, which makes it
// rescore every match before it records the setting, and times from the process start until
// the setting is recorded; between runs, the bare SQL rescores everything.
func (b *bench) fullRescore(ctx context.Context) (durationFigures, error) {
	var f durationFigures
	for range b.cfg.RescoreRepeats {
		next := "alargue"
		if b.criterio == "alargue" {
			next = "noventa"
		}
		start, err := b.restartScoring(next)
		if err != nil {
			return f, err
		}
		for {
			var stored string
			if err := b.db.QueryRow(ctx, `SELECT criterio FROM scoring.estado`).Scan(&stored); err != nil {
				return f, err
			}
			if stored == next {
				break
			}
			if time.Since(start) > b.patience.Rescore {
				return f, fmt.Errorf("rescore to %s not done after %s", next, b.patience.Rescore)
			}
			time.Sleep(20 * time.Millisecond)
		}
		f.Subject = append(f.Subject, time.Since(start))
		b.criterio = next
		d, err := b.timeBare(ctx, bareRescore, pgx.NamedArgs{"criterio": b.criterio, "zona": displayZone})
		if err != nil {
			return f, err
		}
		f.Reference = append(f.Reference, d)
	}
	return f, nil
}

// restartScoring stops the stack's scoring process and starts the same binary with the same
// environment but SCORING_KNOCKOUT=criterio; it returns when the new process was started.
func (b *bench) restartScoring(criterio string) (time.Time, error) {
	pidfile := filepath.Join(b.cfg.StateDir, "run", "scoring.pid")
	raw, err := os.ReadFile(pidfile)
	if err != nil {
		return time.Time{}, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		return time.Time{}, err
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return time.Time{}, err
	}
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return time.Time{}, err
	}
	var env []string
	for _, kv := range strings.Split(strings.TrimRight(string(environ), "\x00"), "\x00") {
		if !strings.HasPrefix(kv, "SCORING_KNOCKOUT=") && !strings.HasPrefix(kv, "DRAIN_DELAY=") {
			env = append(env, kv)
		}
	}
	env = append(env, "SCORING_KNOCKOUT="+criterio, "DRAIN_DELAY=0s")
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return time.Time{}, err
	}
	for deadline := time.Now().Add(60 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("scoring (pid %d) still running 60 s after SIGTERM", pid)
		}
	}
	logFile, err := os.OpenFile(filepath.Join(b.cfg.StateDir, "logs", "scoring.log"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return time.Time{}, err
	}
	defer logFile.Close()
	cmd := exec.Command(exe)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // outlives the bench; down.sh stops it
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return time.Time{}, err
	}
	if err := os.WriteFile(pidfile, []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644); err != nil {
		return start, err
	}
	go cmd.Wait() //nolint:errcheck // reaps the process if it ends while we run
	return start, nil
}

var httpClient = &http.Client{Timeout: 30 * time.Second}

func get(url string) ([]byte, error) {
	res, err := httpClient.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d %s", url, res.StatusCode, body)
	}
	return body, err
}

func put(url, cookie, body string) error {
	_, err := send(http.MethodPut, url, cookie, body, http.StatusOK)
	return err
}

// send makes a JSON request with the cookie and returns the answer, an error unless its
// status is want.
func send(method, url, cookie, body string, want int) ([]byte, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", cookie)
	res, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != want {
		err = fmt.Errorf("%s %s: %d %s", method, url, res.StatusCode, answer)
	}
	return answer, err
}
