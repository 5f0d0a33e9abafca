// Package standings serves each tournament's standings from snapshots: a table ranked once per
// change of the points (store.StandingsStore.Build) and read by page, with the players who
// registered since appended without points. Pages are cached in Redis under the table's
// version, read from PostgreSQL whenever Redis does not have them or cannot answer, and the
// pages just served kept in the process for a second (localPages).
package standings

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"

	"prode/platform/apierror"
	"prode/scoring/internal/metrics"
	"prode/scoring/internal/store"
)

// LocalFreshFor is how long, by default, a page is served from the process's memory without
// asking Redis whether the version moved: how late a version published by another replica can
// show here. It spares Redis and PostgreSQL the round trips of a standings rush (docs/benchmarks.md).
const LocalFreshFor = time.Second

// PorPagina is the default page size; /api/posiciones/yo reports pages of this size, and
// page 1 of this size is kept warm in the cache.
const PorPagina = 100

// Store is what the standings need of the database.
type Store interface {
	Tournaments(ctx context.Context) ([]store.Torneo, error)
	LastPlayer(ctx context.Context) (int64, error)
	Latest(ctx context.Context) ([]store.Tabla, error)
	Build(ctx context.Context, torneo int64, actual bool, zone string) (store.Tabla, error)
	UpToDate(ctx context.Context, torneo int64, actual bool, zone string) (store.Tabla, bool, error)
	CarryAhead(ctx context.Context, torneo int64, partidos []int64, criterio, zone string, inFlight []int64,
		publish func(store.Tabla)) (done func(), err error)
	Page(ctx context.Context, v store.Version, pagina, porPagina int) (store.Pagina, error)
	Player(ctx context.Context, v store.Tabla, actual bool, id int64, porPagina int) (store.MiPosicion, error)
	MatchdayPage(ctx context.Context, torneo, version int64, fecha time.Time, pagina, porPagina int) (store.Pagina, error)
	Matchdays(ctx context.Context, torneo, version int64, zone string) (store.Fechas, error)
	RowsAgree(ctx context.Context, torneo, tabla int64, zone string) (bool, error)
}

// Announcer hears of every new standings version this process publishes (the live updates).
type Announcer interface {
	Announce(ctx context.Context, torneo, version int64)
}

var (
	errNoPlayer = apierror.NotFound("Todavía no estás en la tabla de posiciones: ingresá de nuevo para registrarte.")
	errNoTorneo = apierror.NotFound("No existe ese torneo.")
	errFecha    = apierror.Invalid("La fecha tiene que tener la forma AAAA-MM-DD, por ejemplo 2022-11-22.")
)

// Service builds and reads the standings.
type Service struct {
	store     Store
	cache     *Cache
	zone      string
	announcer Announcer
	freshFor  time.Duration
	rebuilds  singleflight.Group // one PostgreSQL read per page at a time (fromDatabase)
	builds    singleflight.Group // one snapshot build per tournament at a time
	requests  *prometheus.CounterVec
	snapshots *prometheus.CounterVec // by how they were ranked: carried, totals
	log       *slog.Logger

	mu         sync.Mutex
	local      map[int64]*localPages // per tournament
	torneos    map[int64]bool        // known tournaments: id -> current
	moved      map[int64]bool        // tournaments whose membership changed, until Watch rebuilds them
	lastPlayer int64                 // as last seen by Watch
	rowsLate   map[int64]int64       // per tournament, the version whose rows a matchday answer waited for in vain
}

// New builds the service; m counts where pages come from. Pages are kept in the process for
// localFreshFor (LocalFreshFor in production; 0 keeps none). zone dates the matchdays;
// announcer may be nil.
func New(st Store, cache *Cache, localFreshFor time.Duration, zone *time.Location, announcer Announcer,
	m *metrics.Standings, log *slog.Logger) *Service {
	return &Service{store: st, cache: cache, zone: zone.String(), announcer: announcer, freshFor: localFreshFor,
		requests: m.Requests, snapshots: m.Snapshots, log: log, local: map[int64]*localPages{}, torneos: map[int64]bool{}, moved: map[int64]bool{},
		rowsLate: map[int64]int64{}}
}

func (s *Service) localOf(torneo int64) *localPages {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.local[torneo]
	if !ok {
		l = newLocalPages(s.freshFor)
		s.local[torneo] = l
	}
	return l
}

// Tournament resolves the tournament a request asks for: 0 is the current one, and stays 0
// when there is none yet. Tournaments are read again from PostgreSQL when one is unknown here
// (created since).
func (s *Service) Tournament(ctx context.Context, torneo int64) (id int64, actual bool, err error) {
	for attempt := range 2 {
		s.mu.Lock()
		for t, isActual := range s.torneos {
			if (torneo == 0 && isActual) || t == torneo {
				s.mu.Unlock()
				return t, isActual, nil
			}
		}
		s.mu.Unlock()
		if attempt == 0 {
			if err := s.refreshTournaments(ctx); err != nil {
				return 0, false, err
			}
		}
	}
	if torneo == 0 {
		return 0, false, nil // no tournament yet: an empty table
	}
	return 0, false, errNoTorneo
}

// refreshTournaments reads the tournaments and marks those that became or stopped being the
// current one since the last read: their tables must be built again, by Watch, whichever
// caller (a request, the repair loop, Watch) saw the change first.
func (s *Service) refreshTournaments(ctx context.Context) error {
	ts, err := s.store.Tournaments(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh := make(map[int64]bool, len(ts))
	for _, t := range ts {
		fresh[t.ID] = t.Actual
		if was, known := s.torneos[t.ID]; known && was != t.Actual {
			s.moved[t.ID] = true
		}
	}
	s.torneos = fresh
	return nil
}

// takeMoved returns the tournaments marked by refreshTournaments and clears the marks.
func (s *Service) takeMoved() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	moved := make([]int64, 0, len(s.moved))
	for t := range s.moved {
		moved = append(moved, t)
	}
	clear(s.moved)
	return moved
}

// current is a tournament's version as PostgreSQL has it now: its newest snapshot (built
// here if it has none yet) and, for the current tournament, the newest player.
func (s *Service) current(ctx context.Context, torneo int64) (store.Version, error) {
	_, actual, err := s.Tournament(ctx, torneo)
	if err != nil {
		return store.Version{}, err
	}
	tablas, err := s.store.Latest(ctx)
	if err != nil {
		return store.Version{}, err
	}
	v := store.Version{}
	found := false
	for _, t := range tablas {
		if t.Torneo == torneo {
			v.Tabla, found = t, true
		}
	}
	if !found {
		if v.Tabla, err = s.build(ctx, torneo); err != nil {
			return store.Version{}, err
		}
	}
	if actual {
		last, err := s.store.LastPlayer(ctx)
		if err != nil {
			return store.Version{}, err
		}
		v.Jugadores = max(last, v.JugadoresHasta)
	}
	return v, nil
}

// Version is a tournament's version as it is now, what the around-me board reads the table
// at: the newest snapshot as this replica read it from PostgreSQL within localFreshFor (a newer
// one built here or announced by another replica replaces it at once), and for the current
// tournament the newest player, read now (a player who just signed in is on the table).
func (s *Service) Version(ctx context.Context, torneo int64) (store.Version, error) {
	local := s.localOf(torneo)
	tabla, ok := local.currentTabla()
	if !ok {
		v, err := s.current(ctx, torneo)
		if err == nil {
			local.rememberCurrent(v.Tabla)
		}
		return v, err
	}
	v := store.Version{Tabla: tabla}
	if _, actual, err := s.Tournament(ctx, torneo); err != nil || !actual {
		return v, err
	}
	last, err := s.store.LastPlayer(ctx)
	v.Jugadores = max(last, tabla.JugadoresHasta)
	return v, err
}

// Player returns the signed-in player's place in a tournament's table.
func (s *Service) Player(ctx context.Context, torneo, id int64) (store.MiPosicion, error) {
	if torneo == 0 {
		return store.MiPosicion{}, errNoPlayer
	}
	v, err := s.current(ctx, torneo)
	if err != nil {
		return store.MiPosicion{}, err
	}
	_, actual, err := s.Tournament(ctx, torneo)
	if err != nil {
		return store.MiPosicion{}, err
	}
	m, err := s.store.Player(ctx, v.Tabla, actual, id, PorPagina)
	if errors.Is(err, store.ErrNoPlayer) {
		return m, errNoPlayer
	}
	return m, err
}

// allTournaments reads the tournaments again from PostgreSQL and lists them.
func (s *Service) allTournaments(ctx context.Context) ([]int64, error) {
	if err := s.refreshTournaments(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	torneos := make([]int64, 0, len(s.torneos))
	for t := range s.torneos {
		torneos = append(torneos, t)
	}
	return torneos, nil
}

// Moved hears that a tournament's table moved to version (the live hub's OnEvent): the pages
// kept here of an older one are not answered again.
func (s *Service) Moved(torneo, version int64) { s.localOf(torneo).moved(version) }
