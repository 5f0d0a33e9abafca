// Package scoring applies the points table to results and the bonus questions' points to
// their right answers: it consumes fixtures' outbox, scores each match and question set-based
// and idempotently, and tells the standings cache about new versions.
package scoring

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"prode/scoring/internal/metrics"
	"prode/scoring/internal/store"
)

// Criterio says which score counts in knock-out matches.
type Criterio string

const (
	// Noventa counts the score after 90 minutes plus stoppage time (the default): extra time
	// and the shoot-out are stored and shown, not scored.
	Noventa Criterio = "noventa"
	// Alargue counts the score after extra time when there was extra time.
	Alargue Criterio = "alargue"
)

// ParseCriterio reads the SCORING_KNOCKOUT setting.
func ParseCriterio(s string) (Criterio, error) {
	switch c := Criterio(s); c {
	case Noventa, Alargue:
		return c, nil
	}
	return "", fmt.Errorf("must be %s or %s, not %q", Noventa, Alargue, s)
}

// Store is what scoring needs of the database.
type Store interface {
	ScoreMatches(ctx context.Context, partidos []int64, criterio string, eventos []int64) (torneos []int64, err error)
	Pending(ctx context.Context, limit int, except []int64) ([]store.Evento, error)
	OutboxLag(ctx context.Context) (float64, error)
	Criterio(ctx context.Context) (string, error)
	SetCriterio(ctx context.Context, criterio string) error
	Scored(ctx context.Context) (partidos, preguntas []int64, err error)
	ScoreQuestions(ctx context.Context, preguntas []int64, eventos []int64) (torneos []int64, err error)
	DateMatchdays(ctx context.Context) (redated bool, err error)
}

// Publisher hears of the tournaments whose points changed (the standings, which rank their
// tables anew and publish them), and ranks the current tournament's table ahead of a match's
// points rows (CarryAhead: hold, when carried, keeps the tournament's builds from the totals
// waiting until it is called, once the rows are written; inFlight are the matches whose rows
// are still being written for results carried before).
type Publisher interface {
	Rebuild(ctx context.Context, torneos []int64) error
	CarryAhead(ctx context.Context, partidos []int64, criterio string, inFlight []int64) (published int64, hold func(), err error)
}

// batch is how many outbox events one pass reads at a time.
const batch = 500

// Service scores matches.
type Service struct {
	store     Store
	publisher Publisher
	criterio  Criterio
	metrics   *metrics.Scoring
	log       *slog.Logger
	// matchesPerTransaction bounds how many matches one scoring transaction takes.
	matchesPerTransaction int
	// criterioChecked: the stored points were computed with criterio and their matchdays dated
	// in this time zone (checked once per process, retried until PostgreSQL answers).
	criterioChecked atomic.Bool
}

// New builds the service; matchesPerTransaction is DefaultMatchesPerTransaction in production.
func New(st Store, publisher Publisher, criterio Criterio, matchesPerTransaction int, m *metrics.Scoring, log *slog.Logger) *Service {
	return &Service{store: st, publisher: publisher, criterio: criterio, matchesPerTransaction: max(1, matchesPerTransaction),
		metrics: m, log: log}
}

// DefaultMatchesPerTransaction: a whole World Cup (64) in one pass over the predictions, while a
// longer backlog still commits in steps (SCORING_MATCHES_PER_TRANSACTION; tests that kill the
// process in the middle of a backlog set it lower, so that there is a middle).
const DefaultMatchesPerTransaction = 64

// ScoreMatch recomputes one match's points from its current result and marks eventos as
// applied, then publishes the new standings version.
func (s *Service) ScoreMatch(ctx context.Context, partido int64, eventos []int64) error {
	return s.whileWriting(ctx, 0, func(rows *rowsWriter) error {
		return s.scoreAll(ctx, s.matches(rows), []int64{partido}, map[int64][]int64{partido: eventos})
	})
}

// scorer is what is scored: matches or bonus questions.
type scorer struct {
	name  string // in logs and errors
	count string // the log attribute of how many
	// score recomputes the points of keys in one transaction and marks eventos as applied; it
	// returns the keys' tournaments.
	score func(ctx context.Context, keys, eventos []int64) ([]int64, error)
	// ahead, when set, is tried first for keys with events: true when their tournament's table
	// was carried to them and published, and their points rows were left to a rowsWriter.
	ahead func(ctx context.Context, keys []int64, eventos map[int64][]int64) (bool, error)
}

// matches scores matches, by the knock-out setting. With rows, their results' events are
// published ahead of the points rows (the standings carry the newest table to them), which
// rows writes while the next results are carried. A rescore of matches without events (a new
// knock-out setting), and a result whose table cannot be carried, write the rows first and
// have the table ranked from the totals: the carry takes the points of each prediction at the
// score the newest table counts for granted, and a full rescore is also what counts
// predictions that were never scored (written by hand, or saved as an organiser entered a
// result early).
func (s *Service) matches(rows *rowsWriter) scorer {
	criterio := string(s.criterio)
	m := scorer{name: "matches", count: "partidos", score: func(ctx context.Context, partidos, eventos []int64) ([]int64, error) {
		return s.store.ScoreMatches(ctx, partidos, criterio, eventos)
	}}
	if rows == nil {
		return m
	}
	m.ahead = func(ctx context.Context, partidos []int64, eventos map[int64][]int64) (bool, error) {
		inFlight, _ := rows.inFlight()
		torneo, hold, err := s.publisher.CarryAhead(ctx, partidos, criterio, inFlight)
		if err != nil || hold == nil {
			return false, err
		}
		own := make(map[int64][]int64, len(partidos))
		for _, p := range partidos {
			own[p] = eventos[p]
		}
		if !rows.add(carried{torneo: torneo, partidos: partidos, eventos: own, hold: hold}) {
			// The writer stopped: the pass reports why, and the next one mends the table.
			_, err := rows.idle()
			return false, err
		}
		return true, nil
	}
	return m
}

// whileWriting runs pass with a rowsWriter, and again every passEvery while that writer still
// has rows to write (0: once), and returns once every row it was given is written: the first
// error of a pass or of a write.
func (s *Service) whileWriting(ctx context.Context, passEvery time.Duration, pass func(*rowsWriter) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The rows of carried results, each write a transaction of the matches carried meanwhile.
	// Their tournament was published by the carry (it carries the current tournament's matches
	// only): nothing is left to rebuild.
	rows := newRowsWriter(func(ctx context.Context, partidos []int64, eventos map[int64][]int64) error {
		m := s.matches(nil)
		for chunk := range slices.Chunk(partidos, s.matchesPerTransaction) {
			if _, err := s.score(ctx, m, chunk, eventsOf(chunk, eventos)); err != nil {
				return err
			}
		}
		return nil
	})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		rows.run(ctx)
	}()
	defer func() { cancel(); <-stopped }()
	// A pass that fails stops the passes, not the rows of the results carried before it.
	passErr := pass(rows)
	for {
		idle, err := rows.idle()
		if idle || err != nil {
			return errors.Join(passErr, err)
		}
		var again <-chan time.Time
		if passEvery > 0 && passErr == nil {
			again = time.After(passEvery)
		}
		select {
		case <-ctx.Done():
			return errors.Join(passErr, ctx.Err())
		case <-rows.written:
		case <-again:
			passErr = pass(rows)
		}
	}
}

// questions scores bonus questions.
func (s *Service) questions() scorer {
	return scorer{name: "bonus questions", count: "preguntas", score: s.store.ScoreQuestions}
}

// score runs one scoring transaction of keys, timed and logged.
func (s *Service) score(ctx context.Context, what scorer, keys, eventos []int64) ([]int64, error) {
	start := time.Now()
	torneos, err := what.score(ctx, keys, eventos)
	if err != nil {
		return nil, fmt.Errorf("score %s %v: %w", what.name, keys, err)
	}
	elapsed := time.Since(start)
	s.metrics.Duration.Observe(elapsed.Seconds())
	s.metrics.Processed.Add(float64(len(eventos)))
	s.log.Info(what.name+" scored", slog.Int(what.count, len(keys)), slog.Int("eventos", len(eventos)),
		slog.Any("torneos", torneos), slog.Duration("duration", elapsed))
	return torneos, nil
}

// publish has the standings of the tournaments ranked anew and published.
func (s *Service) publish(ctx context.Context, torneos []int64) {
	// The points are committed: a failure here is healed by the repair loop (the cache) and
	// by the next start, which builds every table (the snapshots).
	if err := s.publisher.Rebuild(ctx, torneos); err != nil {
		s.log.Warn("standings not rebuilt", slog.String("error", err.Error()))
	}
}

// scoreAll scores the keys in order, s.matchesPerTransaction per transaction (a question's
// answers are as many as a match's predictions), and publishes the tournaments they touched
// once after them (each publish ranks a whole table), also when one transaction fails: what
// was committed before it is shown.
func (s *Service) scoreAll(ctx context.Context, what scorer, keys []int64, eventos map[int64][]int64) error {
	var touched []int64
	defer func() {
		if len(touched) > 0 {
			slices.Sort(touched)
			s.publish(ctx, slices.Compact(touched))
		}
	}()
	for chunk := range slices.Chunk(keys, s.matchesPerTransaction) {
		ids := eventsOf(chunk, eventos)
		if what.ahead != nil && len(ids) > 0 {
			queued, err := what.ahead(ctx, chunk, eventos)
			if err != nil {
				return fmt.Errorf("carry %s %v: %w", what.name, chunk, err)
			}
			if queued {
				continue
			}
		}
		torneos, err := s.score(ctx, what, chunk, ids)
		if err != nil {
			return err
		}
		touched = append(touched, torneos...)
	}
	return nil
}

// eventsOf lists the events of keys.
func eventsOf(keys []int64, eventos map[int64][]int64) []int64 {
	var ids []int64
	for _, key := range keys {
		ids = append(ids, eventos[key]...)
	}
	return ids
}

// ProcessPending applies every outbox event not applied yet, one transaction per match, and
// returns how many it applied. The first call also rescores every match when the knock-out
// setting changed since the points were computed, and dates the matchdays again when the
// display time zone changed.
func (s *Service) ProcessPending(ctx context.Context) (int, error) {
	if !s.criterioChecked.Load() {
		if err := s.rescoreIfCriterioChanged(ctx); err != nil {
			return 0, err
		}
		redated, err := s.store.DateMatchdays(ctx)
		if err != nil {
			return 0, fmt.Errorf("date the matchdays: %w", err)
		}
		if redated {
			s.log.Info("matchdays dated in the display time zone")
		}
		s.criterioChecked.Store(true)
	}
	processed := 0
	err := s.whileWriting(ctx, pendingWhileWriting, func(rows *rowsWriter) error {
		n, err := s.applyPending(ctx, rows)
		processed += n
		return err
	})
	if err != nil {
		return processed, err
	}
	lag, err := s.store.OutboxLag(ctx)
	if err != nil {
		return processed, err
	}
	s.metrics.Lag.Set(lag)
	return processed, nil
}

// pendingWhileWriting is how often a pass looks for new events while the rows of the results
// it carried are being written: the next result is carried without waiting for them.
const pendingWhileWriting = 100 * time.Millisecond

// applyPending applies the outbox events pending but for those rows is applying, and returns
// how many it applied (or left to rows).
func (s *Service) applyPending(ctx context.Context, rows *rowsWriter) (int, error) {
	processed := 0
	for {
		_, inFlight := rows.inFlight()
		eventos, err := s.store.Pending(ctx, batch, inFlight)
		if err != nil {
			return processed, err
		}
		// One transaction per match, however many events it has: the result is read as it
		// is now, so the events of a match are applied together. The same for a bonus
		// question's right answer.
		var order, preguntas []int64
		byMatch, byQuestion := map[int64][]int64{}, map[int64][]int64{}
		for _, e := range eventos {
			if e.Pregunta != 0 {
				if _, seen := byQuestion[e.Pregunta]; !seen {
					preguntas = append(preguntas, e.Pregunta)
				}
				byQuestion[e.Pregunta] = append(byQuestion[e.Pregunta], e.ID)
				continue
			}
			if _, seen := byMatch[e.Partido]; !seen {
				order = append(order, e.Partido)
			}
			byMatch[e.Partido] = append(byMatch[e.Partido], e.ID)
		}
		if err := s.scoreAll(ctx, s.matches(rows), order, byMatch); err != nil {
			return processed, err
		}
		if err := s.scoreAll(ctx, s.questions(), preguntas, byQuestion); err != nil {
			return processed, err
		}
		processed += len(eventos)
		if len(eventos) < batch {
			return processed, nil
		}
	}
}

// rescoreIfCriterioChanged rescores every match when the stored points were computed with
// another knock-out setting, and then records the setting. Interrupted, it starts over at
// the next start, since the setting is recorded last.
func (s *Service) rescoreIfCriterioChanged(ctx context.Context) error {
	stored, err := s.store.Criterio(ctx)
	if err != nil {
		return fmt.Errorf("read knock-out setting: %w", err)
	}
	if Criterio(stored) == s.criterio {
		return nil
	}
	partidos, preguntas, err := s.store.Scored(ctx)
	if err != nil {
		return fmt.Errorf("list matches and bonus questions to rescore: %w", err)
	}
	s.log.Info("knock-out setting changed: rescoring every match and bonus question",
		slog.String("from", stored), slog.String("to", string(s.criterio)), slog.Int("partidos", len(partidos)),
		slog.Int("preguntas", len(preguntas)))
	if err := s.scoreAll(ctx, s.matches(nil), partidos, nil); err != nil {
		return err
	}
	if err := s.scoreAll(ctx, s.questions(), preguntas, nil); err != nil {
		return err
	}
	return s.store.SetCriterio(ctx, string(s.criterio))
}
