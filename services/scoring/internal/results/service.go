// Package results lists finished matches with their score and, for a signed-in player, the
// player's prediction and points.
package results

import (
	"context"
	"time"

	"prode/platform/wire"
	"prode/scoring/internal/store"
)

// Store is what the results need of the database.
type Store interface {
	Finished(ctx context.Context, torneo, player int64) ([]store.Finalizado, error)
}

// ResultadoPartido is one finished match as GET /api/resultados shows it.
type ResultadoPartido struct {
	Partido int64 `json:"partido"`
	Torneo  int64 `json:"torneo"`
	wire.Encuentro
	Inicio    time.Time         `json:"inicio"`
	Resultado wire.Resultado    `json:"resultado"`
	Apuesta   *store.Prediccion `json:"apuesta"`
	Puntos    *int              `json:"puntos"`
}

// Service formats finished matches.
type Service struct {
	store Store
	zone  *time.Location
}

// New shows kick-offs in zone (DISPLAY_TIMEZONE).
func New(st Store, zone *time.Location) *Service { return &Service{store: st, zone: zone} }

// List returns a tournament's finished matches, most recent first; player 0 is nobody (signed
// out), so apuesta and puntos stay null.
func (s *Service) List(ctx context.Context, torneo, player int64) ([]ResultadoPartido, error) {
	rows, err := s.store.Finished(ctx, torneo, player)
	if err != nil {
		return nil, err
	}
	out := make([]ResultadoPartido, 0, len(rows))
	for _, r := range rows {
		out = append(out, ResultadoPartido{
			Partido: r.Partido, Torneo: torneo,
			Encuentro: wire.NewEncuentro(r.Local, r.Visitante, r.Categoria, r.Inicio, s.zone), Inicio: r.Inicio.UTC(),
			Resultado: r.Resultado, Apuesta: r.Apuesta, Puntos: r.Puntos,
		})
	}
	return out, nil
}
