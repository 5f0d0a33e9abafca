package scoring

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// ScoreQuestion recomputes one bonus question's points from its current right answer and
// marks eventos as applied, then publishes the new standings version.
func (s *Service) ScoreQuestion(ctx context.Context, pregunta int64, eventos []int64) error {
	return s.scoreQuestions(ctx, []int64{pregunta}, map[int64][]int64{pregunta: eventos})
}

// scoreQuestions scores the bonus questions, s.matchesPerTransaction per transaction (a
// question's answers are as many as a match's predictions), and publishes the tournaments they
// touched once after them, also when one transaction fails.
func (s *Service) scoreQuestions(ctx context.Context, preguntas []int64, eventos map[int64][]int64) error {
	var touched []int64
	defer func() {
		if len(touched) > 0 {
			slices.Sort(touched)
			s.publish(ctx, slices.Compact(touched))
		}
	}()
	for chunk := range slices.Chunk(preguntas, s.matchesPerTransaction) {
		var ids []int64
		for _, pregunta := range chunk {
			ids = append(ids, eventos[pregunta]...)
		}
		start := time.Now()
		torneos, err := s.store.ScoreQuestions(ctx, chunk, ids)
		if err != nil {
			return fmt.Errorf("score bonus questions %v: %w", chunk, err)
		}
		elapsed := time.Since(start)
		s.metrics.Duration.Observe(elapsed.Seconds())
		s.metrics.Processed.Add(float64(len(ids)))
		s.log.Info("bonus questions scored", slog.Int("preguntas", len(chunk)), slog.Int("eventos", len(ids)),
			slog.Any("torneos", torneos), slog.Duration("duration", elapsed))
		touched = append(touched, torneos...)
	}
	return nil
}
