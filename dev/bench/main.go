// Command bench loads a World Cup at scale into a running local stack (dev/bench.sh starts it)
// and measures it against references on the same machine, in the same run: nginx serving the
// same bytes, pgbench running the same statement, the bare SQL. It writes a Markdown report.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
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
