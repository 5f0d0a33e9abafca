// Package grupos serves the private leagues: a player creates one, shares its invite code,
// others join with it; its table is the tournament's standings snapshot restricted to its
// members, ranked within the league by the main table's rule. Membership and the limits live in
// PostgreSQL (store.GruposStore), enforced in the write transactions; table pages are cached in
// Redis under the snapshot and the league's version, and read from PostgreSQL when Redis does
// not have them or cannot answer.
package grupos

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"prode/platform/apierror"
	"prode/platform/events"
	"prode/scoring/internal/metrics"
	"prode/scoring/internal/standings"
	"prode/scoring/internal/store"
)

// DefaultLimites are GRUPOS_MAX_POR_JUGADOR's and GRUPOS_MAX_MIEMBROS's defaults.
var DefaultLimites = store.Limites{PorJugador: 50, Miembros: 5000}

// A session may join with GuessBurst unknown codes at once, then GuessesPerHour an hour: enough
// for mistyped links, nothing for guessing 128-bit codes, and never in the way of a valid one.
const (
	GuessBurst     = 10
	GuessesPerHour = 10
)

// Tournaments resolves a tournament (standings.Service): 0 is the current one, and stays 0
// when there is none.
type Tournaments interface {
	Tournament(ctx context.Context, torneo int64) (id int64, actual bool, err error)
}

// codeAttempts bounds how often a new code is drawn when one collides with another league's
// (128 random bits: in practice never).
const codeAttempts = 3

// Service is the leagues' logic over the store.
type Service struct {
	store       *store.GruposStore
	cache       *standings.Cache
	recent      *recentPages
	accessCache *AccessCache
	tournaments Tournaments
	limites     store.Limites
	metrics     *metrics.Grupos
	log         *slog.Logger
}

// New builds the service.
func New(st *store.GruposStore, cache *standings.Cache, tournaments Tournaments, limites store.Limites, m *metrics.Grupos,
	log *slog.Logger) *Service {
	return &Service{store: st, cache: cache, recent: newRecentPages(), accessCache: newAccessCache(accessFreshFor),
		tournaments: tournaments, limites: limites, metrics: m, log: log}
}

// AccessCache is what the scoring consumer's connection tells of the changes to who may read a
// league (events.AccessChannel): until it listens, every read asks PostgreSQL.
func (s *Service) AccessCache() *AccessCache { return s.accessCache }

// Create makes a league in a tournament (0: the current one) with the player as its owner and
// first member, and answers it as its owner sees it.
func (s *Service) Create(ctx context.Context, jugador, torneo int64, nombre string) (store.Grupo, error) {
	nombre, err := cleanName(nombre)
	if err != nil {
		return store.Grupo{}, err
	}
	torneo, _, err = s.tournaments.Tournament(ctx, torneo)
	if err != nil {
		return store.Grupo{}, err
	}
	if torneo == 0 {
		return store.Grupo{}, errSinTorneo
	}
	var id int64
	for range codeAttempts {
		id, err = s.store.Create(ctx, torneo, nombre, jugador, newCode(), s.limites)
		if !errors.Is(err, store.ErrCodigoRepetido) {
			break
		}
	}
	if err != nil {
		return store.Grupo{}, s.answer(err)
	}
	s.metrics.Created.Inc()
	return s.Get(ctx, id, jugador)
}

// Mine lists the player's leagues in a tournament (0: the current one).
func (s *Service) Mine(ctx context.Context, jugador, torneo int64) ([]store.GrupoResumen, error) {
	torneo, _, err := s.tournaments.Tournament(ctx, torneo)
	if err != nil || torneo == 0 {
		return []store.GrupoResumen{}, err
	}
	return s.store.Mine(ctx, jugador, torneo)
}

// Get answers a league to one of its members.
func (s *Service) Get(ctx context.Context, id, jugador int64) (store.Grupo, error) {
	g, err := s.store.Get(ctx, id, jugador)
	return g, s.answer(err)
}

// Rename renames the player's league.
func (s *Service) Rename(ctx context.Context, id, jugador int64, nombre string) (store.Grupo, error) {
	nombre, err := cleanName(nombre)
	if err != nil {
		return store.Grupo{}, err
	}
	if err := s.store.Rename(ctx, id, jugador, nombre); err != nil {
		return store.Grupo{}, s.answer(err)
	}
	return s.Get(ctx, id, jugador)
}

// Delete deletes the player's league.
func (s *Service) Delete(ctx context.Context, id, jugador int64) error {
	err := s.store.Delete(ctx, id, jugador)
	if err == nil {
		s.forgetLeague(id)
	}
	return s.answer(err)
}

// NewCode gives the player's league a new invite code; the old one stops working.
func (s *Service) NewCode(ctx context.Context, id, jugador int64) (string, error) {
	var err error
	for range codeAttempts {
		codigo := newCode()
		err = s.store.SetCode(ctx, id, jugador, &codigo)
		if err == nil {
			return codigo, nil
		}
		if !errors.Is(err, store.ErrCodigoRepetido) {
			break
		}
	}
	return "", s.answer(err)
}

// RevokeCode leaves the player's league without an invite code until they make a new one.
func (s *Service) RevokeCode(ctx context.Context, id, jugador int64) error {
	return s.answer(s.store.SetCode(ctx, id, jugador, nil))
}

// Invitation answers what an invite code leads to.
func (s *Service) Invitation(ctx context.Context, codigo string) (store.Invitacion, error) {
	if !plausibleCode(codigo) {
		return store.Invitacion{}, errInvitacion
	}
	i, err := s.store.Invitation(ctx, codigo)
	return i, s.answer(err)
}

// Join adds the player to the league of an invite code (already in it: nothing changes) and
// answers the league.
func (s *Service) Join(ctx context.Context, codigo string, jugador int64) (store.Grupo, error) {
	if !plausibleCode(codigo) {
		return store.Grupo{}, s.refused(errInvitacion)
	}
	id, joined, err := s.store.Join(ctx, codigo, jugador, s.limites)
	if err != nil {
		return store.Grupo{}, s.refused(s.answer(err))
	}
	if joined {
		s.metrics.Joins.Inc()
		s.forgetLeague(id) // its members read their table at its new version at once
	}
	return s.Get(ctx, id, jugador)
}

// refused counts a refused join by its reason (a failure of PostgreSQL is no refusal).
func (s *Service) refused(err error) error {
	if r := Reason(err); r != "error" {
		s.metrics.Refused.WithLabelValues(r).Inc()
	}
	return err
}

// GuessesExhausted counts a join refused because its session tried too many unknown codes.
func (s *Service) GuessesExhausted() {
	s.metrics.Refused.WithLabelValues("demasiadas_solicitudes").Inc()
}

// Members answers one page of a league's members to one of them, asking with session sesion.
func (s *Service) Members(ctx context.Context, id, jugador int64, sesion string, pagina, porPagina int) ([]store.Miembro, error) {
	if _, err := s.Access(ctx, id, jugador, sesion); err != nil {
		return nil, err
	}
	return s.store.Members(ctx, id, pagina, porPagina)
}

// Remove takes a member out of a league: the owner removes others, a member leaves.
func (s *Service) Remove(ctx context.Context, id, actor, jugador int64) error {
	err := s.store.Remove(ctx, id, actor, jugador)
	if err == nil {
		s.forgetLeague(id)
	}
	return s.answer(err)
}

// forgetLeague forgets at once, after a change of the league's members made here, the access
// this replica remembers to it, as the notification that every replica hears of it a moment
// later on events.AccessChannel (this one again too) does.
func (s *Service) forgetLeague(id int64) {
	s.accessCache.Notified(events.LeagueChanged(id))
}

// Access reads a league's table state for one of its members, whose session (sesion) must
// still be open: their routes verify only the token's signature (session.Verifier.Signed). The
// league's table, its members and its around-me board (tablero) all ask it.
// A member's access confirmed lately is remembered (AccessCache).
func (s *Service) Access(ctx context.Context, id, jugador int64, sesion string) (store.Acceso, error) {
	k := accessKey{grupo: id, jugador: jugador, sesion: sesion}
	if a, ok := s.accessCache.get(k); ok {
		s.metrics.Access.WithLabelValues("local").Inc()
		return a, nil
	}
	s.metrics.Access.WithLabelValues("database").Inc()
	generation := s.accessCache.begin()
	a, err := s.store.Access(ctx, id, jugador, sesion)
	if err == nil {
		s.accessCache.put(k, a, generation)
	}
	switch {
	case err != nil:
		return a, err
	case !a.Sesion:
		return a, apierror.ErrUnauthenticated
	case !a.Existe:
		return a, errNoGrupo
	case !a.Miembro:
		return a, errNoMiembro
	}
	return a, nil
}

// TablePage is GET /api/grupos/{id}/posiciones: a page of the standings (Posiciones) and the
// league it is of.
type TablePage struct {
	store.Pagina
	Grupo int64 `json:"grupo"`
}

// Table answers the JSON body of one page of a league's table to one of its members: from the
// process's memory or Redis when either holds the page at the current snapshot and membership,
// else from PostgreSQL (and then kept in both). A Redis outage never fails a request.
func (s *Service) Table(ctx context.Context, id, jugador int64, sesion string, pagina, porPagina int) ([]byte, error) {
	a, err := s.Access(ctx, id, jugador, sesion)
	if err != nil {
		return nil, err
	}
	key := s.cache.LeaguePageKey(id, a.Tabla, a.Version, pagina, porPagina)
	if body, ok := s.recent.get(key); ok {
		s.metrics.Tables.WithLabelValues("local").Inc()
		return body, nil
	}
	body, cacheErr := s.cache.Get(ctx, key)
	switch {
	case cacheErr == nil:
		s.metrics.Tables.WithLabelValues("hit").Inc()
		s.recent.put(key, body)
		return body, nil
	case errors.Is(cacheErr, standings.ErrMiss):
		s.metrics.Tables.WithLabelValues("miss").Inc()
	default:
		s.metrics.Tables.WithLabelValues("error").Inc()
		s.log.Debug("league table cache unavailable", slog.String("error", cacheErr.Error()))
	}
	page, err := s.store.TablePage(ctx, id, a, pagina, porPagina)
	if err != nil {
		return nil, err
	}
	if body, err = json.Marshal(TablePage{Pagina: page, Grupo: id}); err != nil {
		return nil, err
	}
	// Pages past the end are not cached (any number of them could be asked for), nor pages read
	// while Redis failed.
	if errors.Is(cacheErr, standings.ErrMiss) && (len(page.Posiciones) > 0 || pagina == 1) {
		s.recent.put(key, body)
		if err := s.cache.Put(ctx, key, body); err != nil {
			s.log.Debug("league table not cached", slog.String("error", err.Error()))
		}
	}
	return body, nil
}
