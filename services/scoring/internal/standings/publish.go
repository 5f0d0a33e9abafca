package standings

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"prode/scoring/internal/store"
)

// build ranks a tournament's table anew, once for every caller that asks at the same moment.
func (s *Service) build(ctx context.Context, torneo int64) (store.Tabla, error) {
	r, err, _ := s.builds.Do(strconv.FormatInt(torneo, 10), func() (any, error) {
		_, actual, err := s.Tournament(ctx, torneo)
		if err != nil {
			return store.Tabla{}, err
		}
		start := time.Now()
		t, err := s.store.Build(ctx, torneo, actual, s.zone)
		if err == nil {
			s.snapshots.WithLabelValues("totals").Inc()
			s.log.Info("standings built", slog.Int64("torneo", torneo), slog.Int64("version", t.ID),
				slog.Int64("filas", t.Filas), slog.Duration("duration", time.Since(start)))
		}
		return t, err
	})
	return r.(store.Tabla), err
}

// Rebuild builds the tables of the given tournaments anew and publishes them. Scoring calls
// it after the transactions it commits.
func (s *Service) Rebuild(ctx context.Context, torneos []int64) error {
	var errs []error
	for _, torneo := range torneos {
		// A build in flight may have read the points before the caller's commit (a first read
		// building the missing table, say): joining it would publish a table without them.
		s.builds.Forget(strconv.FormatInt(torneo, 10))
		if _, err := s.build(ctx, torneo); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := s.publish(ctx, torneo, true); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// CarryAhead ranks the current tournament's table with the present results of partidos and
// publishes it before their points rows are written: the new snapshot is carried from the
// newest one (store.StandingsStore.CarryAhead, a fraction of a second per million players),
// while the rows take tens of seconds at two million players. inFlight are the matches whose
// rows the caller is still writing for results it carried before (their rows are not compared:
// the snapshot's counts stand in for them).
//
// Carried, it answers the tournament published and hold, taken before the tournament's turn is
// let go, which keeps every build from the totals waiting: the caller calls it once the rows
// are written, and the next result can be carried meanwhile. Not carried (no current
// tournament, a matchday that moves back, points rows another scorer wrote, a result of
// another tournament, a failure), it answers 0 and a nil hold: the caller writes the rows and
// has the table ranked from the totals.
func (s *Service) CarryAhead(ctx context.Context, partidos []int64, criterio string, inFlight []int64) (published int64, hold func(), err error) {
	torneo, _, err := s.Tournament(ctx, 0)
	if err != nil || torneo == 0 {
		return 0, nil, err
	}
	start := time.Now()
	hold, err = s.store.CarryAhead(ctx, torneo, partidos, criterio, s.zone, inFlight, func(t store.Tabla) {
		s.snapshots.WithLabelValues("carried").Inc()
		s.log.Info("standings carried", slog.Int64("torneo", torneo), slog.Int64("version", t.ID),
			slog.Int64("filas", t.Filas), slog.Duration("duration", time.Since(start)))
		s.builds.Forget(strconv.FormatInt(torneo, 10))
		if err := s.publish(ctx, torneo, true); err != nil {
			s.log.Warn("carried standings not published; the repair loop will", slog.String("error", err.Error()))
		}
	})
	if err != nil {
		s.log.Warn("standings not carried; ranked from the totals after scoring", slog.String("error", err.Error()))
	}
	if err != nil || hold == nil {
		return 0, nil, nil
	}
	return torneo, hold, nil
}

// publish reads page 1 at the tournament's current version, keeps it here and in Redis, and
// moves the version key to it; announce tells the open pages (a new snapshot, not a sign-up).
func (s *Service) publish(ctx context.Context, torneo int64, announce bool) error {
	v, err := s.current(ctx, torneo)
	if err != nil {
		return err
	}
	s.localOf(torneo).rememberCurrent(v.Tabla)
	if _, err := s.readPage(ctx, v, pageKey{pagina: 1, porPagina: PorPagina}, true); err != nil {
		return err
	}
	if announce && s.announcer != nil {
		s.announcer.Announce(ctx, torneo, v.ID)
	}
	return nil
}

// BuildAll builds, at start, every tournament's table that is not up to date: points committed
// by a process that stopped before building show, and a deployment upgraded from one table for
// everything gets one per tournament. A table that is up to date is kept (store.UpToDate): a new
// pod announces no new version, which every open page would read anew.
func (s *Service) BuildAll(ctx context.Context) error {
	torneos, err := s.allTournaments(ctx)
	if err != nil {
		return err
	}
	var stale []int64
	var errs []error
	for _, torneo := range torneos {
		_, actual, err := s.Tournament(ctx, torneo)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		t, upToDate, err := s.store.UpToDate(ctx, torneo, actual, s.zone)
		switch {
		case err != nil:
			s.log.Warn("standings not checked at start; ranked again", slog.Int64("torneo", torneo), slog.String("error", err.Error()))
			stale = append(stale, torneo)
		case upToDate:
			s.log.Info("standings up to date at start; kept", slog.Int64("torneo", torneo), slog.Int64("version", t.ID))
		default:
			stale = append(stale, torneo)
		}
	}
	return errors.Join(append(errs, s.Rebuild(ctx, stale))...)
}
