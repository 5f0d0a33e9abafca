package standings

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"prode/platform/periodic"
)

// Watch follows what changes the tables without a result, every interval until ctx ends:
// players who sign up (a new version of the current tournament's table, so that they are on
// every page at once) and a change of the current tournament (both tables built anew: the
// current one lists every player, another only those who played it).
func (s *Service) Watch(ctx context.Context, interval time.Duration) {
	s.every(ctx, interval, "standings watch failed", s.WatchOnce)
}

// every runs round every interval until ctx ends, logging its failures as what.
func (s *Service) every(ctx context.Context, interval time.Duration, what string, round func(context.Context) error) {
	periodic.Every(ctx, interval, func(ctx context.Context) {
		if err := round(ctx); err != nil && ctx.Err() == nil {
			s.log.Debug(what, slog.String("error", err.Error()))
		}
	})
}

// WatchOnce is one round of Watch.
func (s *Service) WatchOnce(ctx context.Context) error {
	if err := s.refreshTournaments(ctx); err != nil {
		return err
	}
	if changed := s.takeMoved(); len(changed) > 0 {
		s.log.Info("current tournament changed", slog.Any("torneos", changed))
		if err := s.Rebuild(ctx, changed); err != nil {
			s.mu.Lock()
			for _, t := range changed { // built at the next round
				s.moved[t] = true
			}
			s.mu.Unlock()
			return err
		}
	}
	last, err := s.store.LastPlayer(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	signedUp := last != s.lastPlayer
	s.lastPlayer = last
	s.mu.Unlock()
	if !signedUp {
		return nil
	}
	torneo, _, err := s.Tournament(ctx, 0)
	if err != nil || torneo == 0 {
		return err
	}
	return s.publish(ctx, torneo, false)
}

// Repair keeps Redis's version keys equal to PostgreSQL's, every interval until ctx ends: it
// heals a missed publish, rebuilds the cache once Redis is back after an outage, and keeps
// page 1 warm.
func (s *Service) Repair(ctx context.Context, interval time.Duration) {
	s.every(ctx, interval, "standings cache repair failed", s.RepairOnce)
}

// RepairOnce is one round of Repair, over every tournament. Once page 1 has expired in Redis
// (pageTTL after its last publish) it is read again here rather than by the first request
// that misses it: a rush that starts after a quiet minute otherwise waits for PostgreSQL.
func (s *Service) RepairOnce(ctx context.Context) error {
	torneos, err := s.allTournaments(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, torneo := range torneos {
		errs = append(errs, s.repair(ctx, torneo))
	}
	return errors.Join(errs...)
}

func (s *Service) repair(ctx context.Context, torneo int64) error {
	v, err := s.current(ctx, torneo)
	if err != nil {
		return err
	}
	set, err := s.cache.SetVersion(ctx, torneo, versionOf(v))
	if err != nil {
		return err
	}
	if set {
		s.log.Info("standings cache rebuilt", slog.Int64("torneo", torneo), slog.String("version", versionOf(v).String()))
		return s.publish(ctx, torneo, false)
	}
	cached, err := s.cache.HasPage(ctx, torneo, versionOf(v), pageKey{pagina: 1, porPagina: PorPagina})
	if err != nil || cached {
		return err
	}
	return s.publish(ctx, torneo, false)
}
