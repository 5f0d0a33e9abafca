package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/events"
)

// run measures what cfg asks for against the running stack and writes the report.
func run(ctx context.Context, cfg config) error {
	for _, dir := range []string{cfg.WorkDir, cfg.StaticDir} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	db, err := pgxpool.New(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	b := &bench{cfg: cfg, db: db, memory: newMemorySampler(cfg.StateDir), patience: benchPatience}
	if err := db.QueryRow(ctx, `SELECT criterio FROM scoring.estado`).Scan(&b.criterio); err != nil {
		return err
	}
	sampling, stopSampling := context.WithCancel(ctx)
	defer stopSampling()
	go b.memory.Run(sampling, 200*time.Millisecond)

	r := report{Machine: machine(), Config: cfg}
	var loaded bool
	if err := db.QueryRow(ctx, `SELECT EXISTS (SELECT FROM players.jugadores WHERE email LIKE '%@bench.test')`).Scan(&loaded); err != nil {
		return err
	}
	if loaded {
		return fmt.Errorf("the stack already holds bench players: start from a fresh stack (dev/bench.sh does)")
	}
	if len(cfg.Scale) > 0 {
		return b.scaleRun(ctx, r)
	}

	log.Printf("loading %d players × 64 predictions with COPY", cfg.Players)
	partidos, err := matchIDs(ctx, db, false)
	if err != nil {
		return err
	}
	start := time.Now()
	ids, err := loadPlayers(ctx, db, 0, cfg.Players)
	if err != nil {
		return err
	}
	r.LoadPlayers = time.Since(start)
	start = time.Now()
	if r.Predictions, err = loadPredictions(ctx, db, 0, ids, partidos); err != nil {
		return err
	}
	r.LoadPredictions = time.Since(start)
	log.Print("a past tournament beside the current one, played by every player")
	if r.LoadPast, r.PastPredictions, err = b.loadPastTournament(ctx); err != nil {
		return err
	}
	if ids[len(ids)-1]-ids[0] != int64(len(ids)-1) {
		return fmt.Errorf("player ids are not contiguous (%d..%d for %d players): pgbench could not pick them", ids[0], ids[len(ids)-1], len(ids))
	}

	key, err := sessionKey(cfg.StateDir)
	if err != nil {
		return err
	}
	nSessions := min(cfg.Sessions, len(ids))
	emails := make([]string, nSessions)
	for i := range emails {
		emails[i] = benchEmail(i + 1)
	}
	players, err := openSessions(ctx, db, key, ids[:nSessions], emails, false)
	if err != nil {
		return err
	}
	admin, err := addAdmin(ctx, db, key)
	if err != nil {
		return err
	}
	open, err := matchIDs(ctx, db, true)
	if err != nil {
		return err
	}
	if len(open) < 2 {
		return fmt.Errorf("only %d matches take predictions: the seed must be in the future", len(open))
	}
	scored, writable := open[0], contiguous(open[1:])
	if cfg.RushOnly {
		return b.rushOnly(ctx, r, players, writable, admin, scored)
	}
	switch cfg.Only {
	case "save":
		log.Print("POST a prediction vs pgbench (alone)")
		if r.Save, err = b.postBenchmark(ctx, players, ids[0], nSessions, writable[0], writable); err != nil {
			return err
		}
		r.SaveMatches = len(writable)
		return writeReport(cfg.Out, r.AloneMarkdown("POST a prediction", r.saveRow(), r.writeSave))
	case "league":
		log.Printf("a league of %d players; GET /api/grupos/{id}/posiciones vs nginx (alone)", cfg.LeagueMembers)
		if err := b.leagueBenchmark(ctx, &r, ids, players); err != nil {
			return err
		}
		return writeReport(cfg.Out, r.AloneMarkdown("A league's table", r.leagueRow(), r.writeLeague))
	case "":
	default:
		return fmt.Errorf("-only %q: save, league or nothing", cfg.Only)
	}

	log.Print("idle memory")
	b.memory.Phase("idle")
	time.Sleep(3 * time.Second)

	// Predictions first, while every match takes them; then one match's result, which also
	// moves the standings version past the players just loaded (they are in page 1 from then
	// on); then the reads.
	b.memory.Phase("load")
	log.Print("POST a prediction vs pgbench")
	if r.Save, err = b.postBenchmark(ctx, players, ids[0], nSessions, writable[0], writable); err != nil {
		return err
	}
	r.SaveMatches = len(writable)

	log.Printf("result of match %d to the standings vs bare SQL", scored)
	b.memory.Phase("scoring")
	r.ScoredMatch = scored
	if err := db.QueryRow(ctx, `SELECT count(*) FROM predictions.apuestas WHERE partido_id = $1`, scored).Scan(&r.ScoredPredictions); err != nil {
		return err
	}
	before, err := scoringMetrics(cfg.ScoringAdmin)
	if err != nil {
		return err
	}
	if r.Result, err = b.resultToStandings(ctx, admin, scored); err != nil {
		return err
	}
	after, err := scoringMetrics(cfg.ScoringAdmin)
	if err != nil {
		return err
	}
	r.ResultTx = after.sub(before)

	b.memory.Phase("load")
	log.Print("GET /api/posiciones vs nginx")
	if r.Standings, err = b.getBenchmark(ctx, "scoring", cfg.ScoringAdmin, cfg.ScoringBase+"/api/posiciones", "", "posiciones.json"); err != nil {
		return err
	}
	log.Printf("a league of %d players; GET /api/grupos/{id}/posiciones vs nginx", cfg.LeagueMembers)
	if err := b.leagueBenchmark(ctx, &r, ids, players); err != nil {
		return err
	}
	log.Print("GET /api/partidos-sin-jugar vs nginx")
	if r.Unplayed, err = b.getBenchmark(ctx, "fixtures", cfg.FixturesAdmin, cfg.FixturesBase+"/api/partidos-sin-jugar", "", "partidos-sin-jugar.json"); err != nil {
		return err
	}
	log.Print("match-day rush: saves and standings at once, a result scored meanwhile")
	if r.Rush, err = b.rush(ctx, players, writable, admin, scored, cfg.RushTime); err != nil {
		return err
	}

	if cfg.Streams > 0 {
		log.Printf("live updates: %d event streams open on scoring, %d results timed to them", cfg.Streams, cfg.StreamResults)
		b.memory.Phase("streams")
		if r.Live, err = b.streams(ctx, admin, scored, cfg.Streams, cfg.StreamResults); err != nil {
			return err
		}
		b.memory.Phase("load")
	}

	log.Print("every other match gets a result")
	if r.FirstScoring, err = b.enterEveryResult(ctx); err != nil {
		return err
	}
	log.Print("full rescore vs bare SQL")
	if r.Rescore, err = b.fullRescore(ctx); err != nil {
		return err
	}
	if r.RescoreTx, err = scoringMetrics(cfg.ScoringAdmin); err != nil {
		return err
	}
	if err := db.QueryRow(ctx, `SELECT count(*) FROM predictions.apuestas`).Scan(&r.RescoredPredictions); err != nil {
		return err
	}

	// After the full rescore, so that the rescore (and bareRescore, which knows no bonus points)
	// stays the matches' alone, as in the runs before there were questions.
	log.Print("a bonus question's right answer to the standings vs bare SQL")
	b.memory.Phase("scoring")
	if r.Bonus, r.BonusTx, r.BonusAnswers, err = b.bonusBenchmark(ctx, admin); err != nil {
		return err
	}

	log.Print("first load of the web app")
	b.memory.Phase("web")
	if r.Web, err = b.firstLoad(ctx); err != nil {
		return err
	}
	stopSampling()
	r.Memory = b.memory

	if err := writeReport(cfg.Out, r.Markdown()); err != nil {
		return err
	}
	log.Printf("wrote %s", cfg.Out)
	return nil
}

func writeReport(path, markdown string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(markdown), 0o644)
}

// matchIDs lists the matches in id order: all, or only those taking predictions now.
func matchIDs(ctx context.Context, db *pgxpool.Pool, open bool) ([]int64, error) {
	rows, err := db.Query(ctx, `SELECT id FROM fixtures.partidos_publicados WHERE apostable OR NOT $1 ORDER BY id`, open)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// contiguous is the leading run of consecutive ids (pgbench draws ids from a range).
func contiguous(ids []int64) []int64 {
	n := 1
	for n < len(ids) && ids[n] == ids[n-1]+1 {
		n++
	}
	return ids[:n]
}

func sessionKey(stateDir string) ([]byte, error) {
	raw, err := os.ReadFile(filepath.Join(stateDir, "session.key"))
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(strings.TrimSpace(string(raw)))
}

// enterEveryResult gives every match without a result one, as an organiser importing a
// tournament would (teams for the knock-out matches, results, one outbox event each, in one
// transaction), and times until the scoring consumer has applied them all.
func (b *bench) enterEveryResult(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	_, err := b.db.Exec(ctx, `
		WITH sin_equipos AS (
		    UPDATE fixtures.partidos SET local = 'ARG', visitante = 'FRA'
		     WHERE local IS NULL OR visitante IS NULL RETURNING id
		), nuevos AS (
		    INSERT INTO fixtures.resultados (partido_id, goles_local, goles_visitante, goles_local_alargue, goles_visitante_alargue)
		    SELECT p.id, p.id % 4, (p.id / 4) % 3,
		           CASE WHEN p.categoria NOT LIKE 'Grupo%' THEN p.id % 4 + 1 END,
		           CASE WHEN p.categoria NOT LIKE 'Grupo%' THEN (p.id / 4) % 3 END
		      FROM fixtures.partidos p
		     WHERE NOT EXISTS (SELECT FROM fixtures.resultados r WHERE r.partido_id = p.id)
		    RETURNING partido_id
		)
		INSERT INTO fixtures.eventos (partido_id, tipo) SELECT partido_id, '`+events.ResultadoCargado+`' FROM nuevos;
		NOTIFY `+events.Channel)
	if err != nil {
		return 0, err
	}
	if err := b.waitScored(ctx, start); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// waitScored waits until the scoring consumer has applied every outbox event.
func (b *bench) waitScored(ctx context.Context, start time.Time) error {
	for {
		var pending int
		err := b.db.QueryRow(ctx, `
			SELECT count(*) FROM fixtures.eventos e
			 WHERE NOT EXISTS (SELECT FROM scoring.eventos_procesados p WHERE p.evento_id = e.id)`).Scan(&pending)
		if err != nil {
			return err
		}
		if pending == 0 {
			return nil
		}
		if time.Since(start) > b.patience.Rescore {
			return fmt.Errorf("%d results still unscored after %s", pending, b.patience.Rescore)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
