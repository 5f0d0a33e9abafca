// Package matchpoints shows who scored what in a finished match: a page of every player's
// prediction and points in name order, optionally only those who scored a given number of
// points, and how many scored each.
//
// At the scale we aim for (2,000,000 players) a match's points are never read whole for a
// request: the list is read by page, and the counts, one pass over the match's points, are kept
// in memory for a few seconds (FreshFor), so that a crowd opening the page costs one count.
package matchpoints

import (
	"context"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"prode/platform/apierror"
	"prode/platform/session"
	"prode/scoring/internal/store"
)

// FreshFor is how long a match's counts are kept. Points change only when a result is entered,
// corrected or deleted; for this long after a correction the counts (and the total they give
// the pages) may be the previous ones, while the rows already show the new points.
const FreshFor = 5 * time.Second

// Store is what the match's points need of the database.
type Store interface {
	Finished(ctx context.Context, partido int64) (exists, finished bool, err error)
	Counts(ctx context.Context, partido int64) ([]store.PuntosContados, error)
	Own(ctx context.Context, partido, jugador int64) (*int, error)
	Page(ctx context.Context, partido, jugador int64, puntos *int, offset, limit int) ([]store.PuntosDeJugador, error)
}

var (
	errNoMatch  = apierror.NotFound("Ese partido no existe.")
	errNoResult = apierror.Conflict("partido_sin_resultado", "Este partido todavía no tiene resultado: los puntos se ven cuando termina.")
)

// Pagina is GET /api/puntos's answer.
type Pagina struct {
	Partido   int64                   `json:"partido"`
	Pagina    int                     `json:"pagina"`
	PorPagina int                     `json:"por_pagina"`
	Total     int                     `json:"total"`      // players in the list (with a points filter, those)
	PorPuntos []store.PuntosContados  `json:"por_puntos"` // how many scored each number of points
	TusPuntos *int                    `json:"tus_puntos"`
	Jugadores []store.PuntosDeJugador `json:"jugadores"`
}

// Service reads a match's points and keeps its counts briefly.
type Service struct {
	store    Store
	freshFor time.Duration
	now      func() time.Time

	mu     sync.Mutex
	counts map[int64]keptCounts
	reads  singleflight.Group
}

type keptCounts struct {
	at     time.Time
	counts []store.PuntosContados
}

// New builds the service; counts are kept for freshFor (FreshFor in production; 0 keeps none).
func New(st Store, freshFor time.Duration) *Service {
	return &Service{store: st, freshFor: freshFor, now: time.Now, counts: map[int64]keptCounts{}}
}

// Page is one page (pagina from 1) of the match's players by name with their points; puntos,
// when not nil, keeps only those who scored that many.
func (s *Service) Page(ctx context.Context, c session.Claims, partido int64, puntos *int, pagina, porPagina int) (Pagina, error) {
	exists, finished, err := s.store.Finished(ctx, partido)
	switch {
	case err != nil:
		return Pagina{}, err
	case !exists:
		return Pagina{}, errNoMatch
	case !finished:
		return Pagina{}, errNoResult
	}
	counts, err := s.countsOf(ctx, partido)
	if err != nil {
		return Pagina{}, err
	}
	out := Pagina{Partido: partido, Pagina: pagina, PorPagina: porPagina, PorPuntos: counts}
	todos := 0 // everyone scored: unlike each count, unchanged by a correction
	for _, n := range counts {
		todos += n.Jugadores
		if puntos == nil || *puntos == n.Puntos {
			out.Total += n.Jugadores
		}
	}
	if out.TusPuntos, err = s.store.Own(ctx, partido, c.PlayerID); err != nil {
		return Pagina{}, err
	}
	out.Jugadores = []store.PuntosDeJugador{}
	// A page past everyone is empty without a read: the walk to its offset would cross every
	// name. (Past the kept count of its filter it is read: the count may predate a correction.)
	if offset := (pagina - 1) * porPagina; offset < todos {
		if out.Jugadores, err = s.store.Page(ctx, partido, c.PlayerID, puntos, offset, porPagina); err != nil {
			return Pagina{}, err
		}
	}
	return out, nil
}

// countsOf returns the match's counts, kept for freshFor. None are kept while the match has
// no points yet (scoring follows a result within seconds): the page shows them as they come.
func (s *Service) countsOf(ctx context.Context, partido int64) ([]store.PuntosContados, error) {
	s.mu.Lock()
	k, ok := s.counts[partido]
	s.mu.Unlock()
	if ok && s.now().Sub(k.at) < s.freshFor {
		return k.counts, nil
	}
	v, err, _ := s.reads.Do(strconv.FormatInt(partido, 10), func() (any, error) {
		counts, err := s.store.Counts(ctx, partido)
		if err != nil || len(counts) == 0 || s.freshFor <= 0 {
			return counts, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, found := s.counts[partido]; !found && len(s.counts) >= maxKept {
			clear(s.counts) // all stale within freshFor anyway
		}
		s.counts[partido] = keptCounts{at: s.now(), counts: counts}
		return counts, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]store.PuntosContados), nil
}

// maxKept bounds the matches kept at once (a tournament has at most 104).
const maxKept = 512
