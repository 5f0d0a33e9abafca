// Command bench loads a World Cup at scale into a running local stack (dev/bench.sh starts it)
// and measures it against references on the same machine, in the same run: nginx serving the
// same bytes, pgbench running the same statement, the bare SQL. It writes a Markdown report.
package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/events"
)

type config struct {
	StateDir, WorkDir, StaticDir, WebDir, Out string
	DatabaseURL, PredictionsURL, Pgbench      string
	ReferenceURL, WebURL                      string
	FixturesBase, PredictionsBase             string
	ScoringBase, ScoringAdmin                 string
	FixturesAdmin, PredictionsAdmin           string
	ProfileTime                               time.Duration // 0: no CPU profiles
	Players, Sessions, Connections            int
	RunTime                                   time.Duration
	Repeats, ScoringRepeats, RescoreRepeats   int
	WebRuns                                   int
	LeagueMembers                             int    // members of the league whose table is read (issue 16)
	Command                                   string // how the report says to rerun it

	// RushOnly runs the match-day rush alone, for RushTime, and fails when a threshold is
	// missed: `make soak`'s rush scenario (dev/bench.sh rush).
	RushOnly bool
	// Only measures one benchmark alone (dev/bench.sh save|league), after the same loads as the
	// full run, and writes its section: "save" (POST a prediction against pgbench) or "league"
	// (a league's table against nginx); "" runs them all.
	Only                       string
	RushTime                   time.Duration
	RushSaveRate, RushReadRate int // requests offered per second
	RushStreams                int // event streams open through the rush

	// Streams live-update streams are opened on scoring while StreamResults results are timed
	// to the event at each (streams.go); 0 skips the step.
	Streams, StreamResults int

	// Scale, when set, runs make bench-scale instead (scale_run.go): one database grown to each
	// of these numbers of players in turn, each measured.
	Scale []int
}

type bench struct {
	cfg      config
	db       *pgxpool.Pool
	criterio string // the knock-out setting scoring runs with now
	memory   *memorySampler
	patience patience
}

// patience is how long the bench waits for a change to show before it gives up: make bench's
// own, grown with the players by make bench-scale (scalePatience).
type patience struct {
	Result  time.Duration // a result to the standings
	Rescore time.Duration // a batch of results or a full rescore applied
	Event   time.Duration // a result to the event at every open stream
}

var benchPatience = patience{Result: 2 * time.Minute, Rescore: 15 * time.Minute, Event: 15 * time.Second}

func main() {
	var cfg config
	flag.StringVar(&cfg.StateDir, "state", ".bench/stack", "the stack's state folder (pid files, session key, logs)")
	flag.StringVar(&cfg.WorkDir, "work", ".bench/work", "scratch folder for load scripts")
	flag.StringVar(&cfg.StaticDir, "static", ".bench/static", "folder the reference nginx serves")
	flag.StringVar(&cfg.WebDir, "web", "web", "the web app (built)")
	flag.StringVar(&cfg.Out, "out", "docs/benchmarks.md", "report to write")
	flag.StringVar(&cfg.DatabaseURL, "database", "", "superuser URL of the stack's database")
	flag.StringVar(&cfg.PredictionsURL, "predictions-database", "", "URL as prode_predictions, for pgbench")
	flag.StringVar(&cfg.Pgbench, "pgbench", "/usr/lib/postgresql/15/bin/pgbench", "pgbench binary")
	flag.StringVar(&cfg.ReferenceURL, "reference", "", "base URL of the reference nginx")
	flag.StringVar(&cfg.WebURL, "web-url", "", "the stack's public URL")
	flag.StringVar(&cfg.FixturesBase, "fixtures", "", "fixtures service base URL")
	flag.StringVar(&cfg.PredictionsBase, "predictions", "", "predictions service base URL")
	flag.StringVar(&cfg.ScoringBase, "scoring", "", "scoring service base URL")
	flag.StringVar(&cfg.ScoringAdmin, "scoring-admin", "", "scoring admin (metrics) base URL")
	flag.StringVar(&cfg.FixturesAdmin, "fixtures-admin", "", "fixtures admin base URL (CPU profiles)")
	flag.StringVar(&cfg.PredictionsAdmin, "predictions-admin", "", "predictions admin base URL (CPU profiles)")
	flag.DurationVar(&cfg.ProfileTime, "profile", 5*time.Second, "CPU profile of the service in one more run of each load benchmark (0: none)")
	flag.IntVar(&cfg.Players, "players", 100_000, "players to load, each predicting every match")
	flag.IntVar(&cfg.Sessions, "sessions", 10_000, "players with a session, who send the predictions")
	flag.IntVar(&cfg.Connections, "connections", 32, "concurrent connections of wrk and pgbench")
	flag.DurationVar(&cfg.RunTime, "duration", 10*time.Second, "length of each load run")
	flag.IntVar(&cfg.Repeats, "repeats", 5, "measured runs of each load benchmark")
	flag.IntVar(&cfg.ScoringRepeats, "scoring-repeats", 5, "results entered for the one-match benchmark")
	flag.IntVar(&cfg.RescoreRepeats, "rescore-repeats", 3, "full rescores")
	flag.IntVar(&cfg.WebRuns, "web-runs", 5, "first loads in Chromium")
	flag.IntVar(&cfg.LeagueMembers, "league-members", 5000, "members of the league whose table is read (GRUPOS_MAX_MIEMBROS: 5000)")
	flag.StringVar(&cfg.Command, "command", "make bench", "the command the report gives to rerun it")
	flag.StringVar(&cfg.Only, "only", "", "save: only POST a prediction vs pgbench; league: only a league's table vs nginx; after the same loads, their section written to -out")
	flag.BoolVar(&cfg.RushOnly, "rush-only", false, "only the match-day rush; exit 1 when a threshold is missed")
	flag.DurationVar(&cfg.RushTime, "rush-duration", 0, "length of the match-day rush (default twice -duration)")
	flag.IntVar(&cfg.RushSaveRate, "rush-save-rate", defaultRushSaveRate, "predictions saved per second in the rush")
	flag.IntVar(&cfg.RushReadRate, "rush-read-rate", defaultRushReadRate, "standings read per second in the rush")
	flag.IntVar(&cfg.RushStreams, "rush-streams", 1000, "event streams (GET /api/eventos) open on scoring through the rush")
	flag.IntVar(&cfg.Streams, "streams", 0, "event streams (GET /api/eventos) to hold open on scoring; 0 skips the live updates step")
	flag.IntVar(&cfg.StreamResults, "stream-results", 5, "results timed from their PUT to the event at every stream")
	scale := flag.String("scale", "", `make bench-scale: the numbers of players to grow one database to, measuring at each ("100000 1000000")`)
	flag.Parse()
	var err error
	if cfg.Scale, err = parseSizes(*scale); err != nil {
		log.Fatal(err)
	}
	if cfg.RushTime == 0 {
		cfg.RushTime = 2 * cfg.RunTime
	}
	log.SetFlags(log.Ltime)
	log.SetPrefix("bench: ")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		log.Fatal(err)
	}
}

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
