package scoring

import "context"

// ScoreQuestion recomputes one bonus question's points from its current right answer and
// marks eventos as applied, then publishes the new standings version.
func (s *Service) ScoreQuestion(ctx context.Context, pregunta int64, eventos []int64) error {
	return s.scoreAll(ctx, s.questions(), []int64{pregunta}, map[int64][]int64{pregunta: eventos})
}
