// Package reveal shows everyone's predictions for a match once it is locked (its cut-off passed
// by the database clock, or it was played): a page of them in name order, and how they are
// distributed. Before the lock a player sees only their own.
//
// At the scale we aim for (2,000,000 players) a match's predictions are never read whole for a
// request: the list is read by page, and the distribution, one pass over the match's rows, is
// kept in memory: for KeptFor once the match is settled (locked for over a minute), when nothing
// can change it any more, and for LockingFor in the minute before, when everyone opens the page.
package reveal

import (
	"context"
	"time"

	"prode/platform/apierror"
	"prode/platform/session"
	"prode/predictions/internal/store"
)

// Store is what the match page needs of the database.
type Store interface {
	Lock(ctx context.Context, partido int64) (store.MatchLock, error)
	Scores(ctx context.Context, partido int64) ([]store.MarcadorContado, error)
	Page(ctx context.Context, partido, jugador int64, offset, limit int) ([]store.ApuestaDeOtro, error)
	Own(ctx context.Context, partido, jugador int64) (*store.Marcador, error)
}

// Marcadores is how many of the most predicted scores the summary names.
const Marcadores = 5

var (
	errNoMatch   = apierror.NotFound("Ese partido no existe.")
	errNotLocked = apierror.Forbidden("Las jugadas de los demás se ven cuando el partido cierra, 1 hora antes del inicio.")
)

// Resumen is GET /api/apuestas/resumen's answer: the player's own prediction always, and the
// distribution of everyone's once the match is locked (null before).
type Resumen struct {
	Partido      int64           `json:"partido"`
	Cerrado      bool            `json:"cerrado"`
	Mia          *store.Marcador `json:"mia"`
	Distribucion *Distribucion   `json:"distribucion"`
}

// Distribucion is how the match's predictions split: home win, draw, away win, and the most
// predicted scores (at most Marcadores, the most predicted first).
type Distribucion struct {
	Total      int                 `json:"total"`
	Local      int                 `json:"local"`
	Empate     int                 `json:"empate"`
	Visitante  int                 `json:"visitante"`
	Marcadores []MarcadorFrecuente `json:"marcadores"`
}

// MarcadorFrecuente is a predicted score and how many players predicted it.
type MarcadorFrecuente struct {
	GolesLocal     int `json:"goles_local"`
	GolesVisitante int `json:"goles_visitante"`
	Jugadores      int `json:"jugadores"`
}

// Pagina is GET /api/apuestas's answer: one page of everyone's predictions, by name.
type Pagina struct {
	Partido   int64                 `json:"partido"`
	Pagina    int                   `json:"pagina"`
	PorPagina int                   `json:"por_pagina"`
	Total     int                   `json:"total"`
	Apuestas  []store.ApuestaDeOtro `json:"apuestas"`
}

// Service applies the lock and keeps settled distributions.
type Service struct {
	store Store
	kept  *kept
}

// New builds the service; distributions are kept for settledFor once the match is settled, and
// for lockingFor in the minute before (KeptFor and LockingFor in production; 0 keeps none).
func New(st Store, settledFor, lockingFor time.Duration) *Service {
	return &Service{store: st, kept: newKept(settledFor, lockingFor)}
}

// Summary is the player's own prediction and, once the match is locked, everyone's
// distribution.
func (s *Service) Summary(ctx context.Context, c session.Claims, partido int64) (Resumen, error) {
	lock, err := s.lock(ctx, partido)
	if err != nil {
		return Resumen{}, err
	}
	out := Resumen{Partido: partido, Cerrado: lock.Locked}
	if out.Mia, err = s.store.Own(ctx, partido, c.PlayerID); err != nil {
		return Resumen{}, err
	}
	if lock.Locked {
		d, err := s.distribution(ctx, partido, lock)
		if err != nil {
			return Resumen{}, err
		}
		out.Distribucion = &d
	}
	return out, nil
}

// Page is one page of everyone's predictions by name (pagina from 1), once the match is locked.
func (s *Service) Page(ctx context.Context, c session.Claims, partido int64, pagina, porPagina int) (Pagina, error) {
	lock, err := s.lock(ctx, partido)
	if err != nil {
		return Pagina{}, err
	}
	if !lock.Locked {
		return Pagina{}, errNotLocked
	}
	// The total comes with the distribution, kept once settled: no count of every row per page.
	d, err := s.distribution(ctx, partido, lock)
	if err != nil {
		return Pagina{}, err
	}
	out := Pagina{Partido: partido, Pagina: pagina, PorPagina: porPagina, Total: d.Total, Apuestas: []store.ApuestaDeOtro{}}
	// A page past the end is empty without a read: the walk to its offset would cross every name.
	if offset := (pagina - 1) * porPagina; offset < d.Total {
		if out.Apuestas, err = s.store.Page(ctx, partido, c.PlayerID, offset, porPagina); err != nil {
			return Pagina{}, err
		}
	}
	return out, nil
}

func (s *Service) lock(ctx context.Context, partido int64) (store.MatchLock, error) {
	lock, err := s.store.Lock(ctx, partido)
	if err == nil && !lock.Exists {
		err = errNoMatch
	}
	return lock, err
}

// distribution reads the match's predictions by score, or takes the kept one; kept by cut-off
// too, so that a rescheduled match is read again.
func (s *Service) distribution(ctx context.Context, partido int64, lock store.MatchLock) (Distribucion, error) {
	return s.kept.get(partido, lock.Cierre, lock.Settled, func() (Distribucion, error) { return s.readDistribution(ctx, partido) })
}

func (s *Service) readDistribution(ctx context.Context, partido int64) (Distribucion, error) {
	scores, err := s.store.Scores(ctx, partido)
	if err != nil {
		return Distribucion{}, err
	}
	return distribute(scores), nil
}

// distribute adds the scores up by outcome and names the most predicted ones (scores come
// most predicted first).
func distribute(scores []store.MarcadorContado) Distribucion {
	d := Distribucion{Marcadores: []MarcadorFrecuente{}}
	for _, m := range scores {
		d.Total += m.Jugadores
		switch {
		case m.GolesLocal > m.GolesVisitante:
			d.Local += m.Jugadores
		case m.GolesLocal == m.GolesVisitante:
			d.Empate += m.Jugadores
		default:
			d.Visitante += m.Jugadores
		}
		if len(d.Marcadores) < Marcadores {
			d.Marcadores = append(d.Marcadores, MarcadorFrecuente{GolesLocal: m.GolesLocal, GolesVisitante: m.GolesVisitante, Jugadores: m.Jugadores})
		}
	}
	return d
}
