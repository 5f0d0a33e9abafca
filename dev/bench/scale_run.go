package main

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// make bench-scale (issue 20): one database grown to each size of -scale in turn (the players
// of each size loaded on top of the previous one's, never from zero), every player predicting
// the same scaleMatches matches of the current tournament, and at each size every measure
// beside its reference in the same run. The report is written after every size, so that a
// long run that fails later keeps the sizes it measured.

// scaleMatches is how many matches each player predicts: a tournament a quarter played.
const scaleMatches = 16

// scaleSize is what one size measured.
type scaleSize struct {
	Players, Added               int   // bench players in the database; added at this size
	Predictions                  int64 // every bench player's, all loaded so far
	LoadPlayers, LoadPredictions time.Duration
	Reindex                      reindexFigures // the predictions' match index rebuilt after the load
	FirstScoring                 time.Duration  // every match's result applied (the first size only)

	Rescore   durationFigures
	RescoreTx scoringTx // the restarted process's transactions: the rescore's

	Delete, Entry, Correction changeFigures

	Pages, DeepPage              int // the table's pages of 100 rows, and the deep one read under load
	Page1, Deep, Board, DayBoard comparison
	Live                         streamFigures
	Disk                         diskFigures
}

// scaleRunner is the state one make bench-scale run carries from size to size.
type scaleRunner struct {
	*bench
	key      []byte
	admin    player
	matches  []int64
	ids      []int64          // the bench players' ids, in loading order
	sessions map[int64]player // players given a session so far, by id
	report   scaleReport
}

func (b *bench) scaleRun(ctx context.Context, r report) error {
	open, err := matchIDs(ctx, b.db, true)
	if err != nil {
		return err
	}
	if len(open) < scaleMatches {
		return fmt.Errorf("only %d matches take predictions, %d needed: the seed must be in the future", len(open), scaleMatches)
	}
	s := &scaleRunner{bench: b, matches: open[:scaleMatches], sessions: map[int64]player{}}
	s.report = scaleReport{Machine: r.Machine, Config: b.cfg, Matches: s.matches}
	if s.key, err = sessionKey(b.cfg.StateDir); err != nil {
		return err
	}
	if s.admin, err = addAdmin(ctx, b.db, s.key); err != nil {
		return err
	}
	for _, players := range b.cfg.Scale {
		log.Printf("scale: %d players", players)
		b.patience = scalePatience(players)
		size, err := s.measure(ctx, players)
		if err != nil {
			return fmt.Errorf("at %d players: %w", players, err)
		}
		s.report.Sizes = append(s.report.Sizes, size)
		s.report.Memory = b.memory
		if err := writeReport(b.cfg.Out, s.report.Markdown()); err != nil {
			return err
		}
	}
	log.Printf("wrote %s", b.cfg.Out)
	return nil
}

// parseSizes reads -scale: numbers of players, growing.
func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Fields(s) {
		n, err := strconv.Atoi(strings.ReplaceAll(f, "_", ""))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-scale %q: %q is not a number of players", s, f)
		}
		if len(sizes) > 0 && n <= sizes[len(sizes)-1] {
			return nil, fmt.Errorf("-scale %q: sizes must grow (the database is grown, never shrunk)", s)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// scalePatience grows make bench's patience with the players: today's scoring takes about half
// a minute a million players for a result, and a quarter of an hour for a full rescore at two
// million. A slow figure is reported, not failed.
func scalePatience(players int) patience {
	per100k := time.Duration(players / 100_000)
	return patience{
		Result:  benchPatience.Result + per100k*time.Minute,
		Rescore: benchPatience.Rescore + per100k*3*time.Minute,
		Event:   benchPatience.Result + per100k*time.Minute,
	}
}

// scalePhase names the memory sampler's phase of one size.
func scalePhase(players int, phase string) string { return fmt.Sprintf("%d %s", players, phase) }

// scalePhases are the phases of every size, in order.
var scalePhases = []string{"load", "scoring", "reads", "streams"}

// measure grows the database to players and takes every measure there.
func (s *scaleRunner) measure(ctx context.Context, players int) (scaleSize, error) {
	z := scaleSize{Players: players, Added: players - len(s.ids)}
	first := len(s.ids) == 0
	phase := func(name string) { s.memory.Phase(scalePhase(players, name)) }

	phase("load")
	log.Printf("scale: loading %d more players × %d predictions with COPY", z.Added, len(s.matches))
	start := time.Now()
	added, err := loadPlayers(ctx, s.db, len(s.ids), z.Added)
	if err != nil {
		return z, err
	}
	z.LoadPlayers = time.Since(start)
	start = time.Now()
	n, err := loadPredictions(ctx, s.db, len(s.ids), added, s.matches)
	if err != nil {
		return z, err
	}
	z.LoadPredictions = time.Since(start)
	s.ids = append(s.ids, added...)
	z.Predictions = int64(len(s.ids)) * int64(len(s.matches))
	if n != int64(len(added)*len(s.matches)) {
		return z, fmt.Errorf("%d predictions copied, not %d", n, len(added)*len(s.matches))
	}
	log.Print("scale: the predictions' match index rebuilt, as once the betting closes")
	if z.Reindex, err = s.rebuildPredictionsIndex(ctx); err != nil {
		return z, err
	}

	phase("scoring")
	if first {
		log.Print("scale: every match gets a result")
		if z.FirstScoring, err = s.enterEveryResult(ctx); err != nil {
			return z, err
		}
	}
	// Also what scores the players just loaded for the matches that already had a result.
	log.Print("scale: full rescore vs bare SQL")
	if z.Rescore, err = s.fullRescore(ctx); err != nil {
		return z, err
	}
	if z.RescoreTx, err = scoringMetrics(s.cfg.ScoringAdmin); err != nil {
		return z, err
	}
	if err := clearReference(ctx, s.db); err != nil {
		return z, err
	}
	if err := s.settle(ctx); err != nil {
		return z, err
	}
	// One match's result deleted, entered again and corrected: the first match keeps a result
	// at the end of every size (the streams' step enters one too), so each size starts alike.
	scored := s.matches[0]
	log.Printf("scale: match %d's result deleted, entered, corrected, each to every page vs bare SQL", scored)
	if z.Delete, err = s.changeToEveryPage(ctx, scored, nil); err != nil {
		return z, fmt.Errorf("result deleted: %w", err)
	}
	if z.Entry, err = s.changeToEveryPage(ctx, scored, &[2]int{1, 0}); err != nil {
		return z, fmt.Errorf("result entered: %w", err)
	}
	if z.Correction, err = s.changeToEveryPage(ctx, scored, &[2]int{0, 1}); err != nil {
		return z, fmt.Errorf("result corrected: %w", err)
	}

	phase("reads")
	if err := s.measureReads(ctx, &z); err != nil {
		return z, err
	}

	if s.cfg.Streams > 0 {
		phase("streams")
		log.Printf("scale: %d event streams open, %d results timed to them", s.cfg.Streams, s.cfg.StreamResults)
		if z.Live, err = s.streams(ctx, s.admin, scored, s.cfg.Streams, s.cfg.StreamResults); err != nil {
			return z, err
		}
	}
	z.Disk, err = diskSizes(ctx, s.db)
	return z, err
}

// measureReads measures page 1, a deep page, the around-me board and the board of the newest
// matchday under load, each against nginx sending the same bytes.
func (s *scaleRunner) measureReads(ctx context.Context, z *scaleSize) error {
	var page standingsPage
	if err := getJSON(s.cfg.ScoringBase+"/api/posiciones", "", &page); err != nil {
		return err
	}
	z.Pages = page.pages()
	z.DeepPage = max(1, z.Pages/2)
	reader, err := s.session(ctx, s.ids[len(s.ids)/2])
	if err != nil {
		return err
	}
	var day string
	if err := s.db.QueryRow(ctx, `SELECT max(fecha)::text FROM scoring.totales_fecha WHERE puntaje > 0`).Scan(&day); err != nil {
		return err
	}
	for _, read := range []struct {
		name, path, cookie, file string
		into                     *comparison
	}{
		{"page 1", "/api/posiciones", "", "posiciones.json", &z.Page1},
		{fmt.Sprintf("page %d", z.DeepPage), fmt.Sprintf("/api/posiciones?pagina=%d", z.DeepPage), "", "posiciones-profunda.json", &z.Deep},
		{"the around-me board", "/api/posiciones/tablero", reader.Cookie, "tablero.json", &z.Board},
		{"the matchday's board", "/api/posiciones/tablero?fecha=" + day, reader.Cookie, "tablero-fecha.json", &z.DayBoard},
	} {
		log.Printf("scale: GET %s (%s) vs nginx", read.path, read.name)
		if *read.into, err = s.getBenchmark(ctx, "scoring", s.cfg.ScoringAdmin, s.cfg.ScoringBase+read.path, read.cookie, read.file); err != nil {
			return err
		}
	}
	return nil
}

// session is a live session of a loaded player (one each: the bench's session ids are
// md5(player id)).
func (s *scaleRunner) session(ctx context.Context, id int64) (player, error) {
	if p, ok := s.sessions[id]; ok {
		return p, nil
	}
	var email string
	if err := s.db.QueryRow(ctx, `SELECT email FROM players.jugadores WHERE id = $1`, id).Scan(&email); err != nil {
		return player{}, err
	}
	ps, err := openSessions(ctx, s.db, s.key, []int64{id}, []string{email}, false)
	if err != nil {
		return player{}, err
	}
	s.sessions[id] = ps[0]
	return ps[0], nil
}

// diskFigures: the database's size and its largest tables', indexes and TOAST included.
type diskFigures struct {
	Database int64
	Tables   []tableSize
}

type tableSize struct {
	Name         string
	Total, Table int64 // bytes with indexes, and the table's own
}

func diskSizes(ctx context.Context, db *pgxpool.Pool) (diskFigures, error) {
	var d diskFigures
	if err := db.QueryRow(ctx, `SELECT pg_database_size(current_database())`).Scan(&d.Database); err != nil {
		return d, err
	}
	rows, err := db.Query(ctx, `
		SELECT n.nspname || '.' || c.relname, pg_total_relation_size(c.oid), pg_relation_size(c.oid)
		  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		 WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
		 ORDER BY 2 DESC LIMIT 6`)
	if err != nil {
		return d, err
	}
	d.Tables, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (tableSize, error) {
		var t tableSize
		err := r.Scan(&t.Name, &t.Total, &t.Table)
		return t, err
	})
	return d, err
}
