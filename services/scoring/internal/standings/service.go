// Package standings serves each tournament's standings from snapshots: a table ranked once per
// change of the points (store.StandingsStore.Build) and read by page, with the players who
// registered since appended without points. Pages are cached in Redis under the table's
// version, read from PostgreSQL whenever Redis does not have them or cannot answer, and the
// pages just served kept in the process for a second (localPages).
package standings

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"

	"prode/platform/apierror"
	"prode/platform/periodic"
	"prode/platform/postgres"
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

// rebuildTimeout bounds one read of a page from PostgreSQL, shared by every request waiting
// for it.
const rebuildTimeout = 10 * time.Second

// rowsWait bounds how long a matchday's answer waits for the points rows of a result already in
// the table (rowsWritten): about a second at 100,000 players, a minute or more at 2 million,
// where the answer is then served uncached.
const rowsWait = 5 * time.Second

// rowsPoll is how often a matchday's answer looks for those rows meanwhile.
const rowsPoll = 200 * time.Millisecond

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

// Page returns the JSON body of one page of a tournament's table (fecha "": the general one;
// a date: that matchday's own table).
func (s *Service) Page(ctx context.Context, torneo int64, fecha string, pagina, porPagina int) ([]byte, error) {
	k := pageKey{pagina: pagina, porPagina: porPagina}
	if fecha != "" {
		if _, err := time.Parse(time.DateOnly, fecha); err != nil {
			return nil, errFecha
		}
		k.tabla = "f" + fecha
	}
	return s.answer(ctx, torneo, k)
}

// Matchdays returns the JSON body of a tournament's matchdays with their best players.
func (s *Service) Matchdays(ctx context.Context, torneo int64) ([]byte, error) {
	return s.answer(ctx, torneo, pageKey{tabla: "fechas"})
}

// answer returns one cached answer of a tournament: from the process's memory when its version
// was confirmed within localFreshFor, else from Redis when it has the answer at the current
// version, else from PostgreSQL (and then cached). A Redis outage never fails a request.
func (s *Service) answer(ctx context.Context, torneo int64, k pageKey) ([]byte, error) {
	torneo, _, err := s.Tournament(ctx, torneo)
	if err != nil {
		return nil, err
	}
	if torneo == 0 {
		if k.tabla == "fechas" {
			return json.Marshal(store.Fechas{Fechas: []store.Fecha{}})
		}
		return json.Marshal(store.Pagina{Pagina: k.pagina, PorPagina: k.porPagina, Posiciones: []store.Posicion{}})
	}
	local := s.localOf(torneo)
	if body, ok := local.get(k); ok {
		s.requests.WithLabelValues("local").Inc()
		return body, nil
	}
	body, v, cacheErr := s.cache.Page(ctx, torneo, k)
	if cacheErr == nil && local.knowsNewerThan(v) {
		// A newer table was announced (by the PostgreSQL poll, or another replica) before Redis's
		// version key moved to it: a page that announcement sent a browser to fetch must not be
		// the older table's, or that browser keeps it until the next result.
		cacheErr = ErrMiss
	}
	switch {
	case cacheErr == nil:
		s.requests.WithLabelValues("hit").Inc()
		local.put(v, k, body)
		return body, nil
	case errors.Is(cacheErr, ErrMiss):
		s.requests.WithLabelValues("miss").Inc()
	default:
		s.requests.WithLabelValues("error").Inc()
		s.log.Debug("standings cache unavailable", slog.String("error", cacheErr.Error()))
	}
	cacheIt := errors.Is(cacheErr, ErrMiss)
	// Stale while read again: with the answer held from moments ago, answer with it and let one
	// read from PostgreSQL run in the background, rather than every request of a rush waiting
	// for that read.
	if body, ok := local.stale(k); ok {
		s.requests.WithLabelValues("stale").Inc()
		s.rebuilds.DoChan(s.pageRebuildKey(torneo, k), s.rebuild(ctx, torneo, k, cacheIt))
		return body, nil
	}
	body, err = s.fromDatabase(ctx, torneo, k, cacheIt)
	if err != nil && postgres.IsUnavailable(err) {
		// PostgreSQL is down (a crash, a failover): no result can be entered meanwhile, so the
		// last table this process served is still the table. Past the version key's TTL,
		// Redis no longer says which version is current, and without this every reader would
		// get a 503 for the rest of the outage.
		if held, ok := local.held(k); ok {
			s.requests.WithLabelValues("stale").Inc()
			return held, nil
		}
	}
	return body, err
}

// pageRebuildKey names one read of a page from PostgreSQL, which the requests wanting that page
// at the same moment share. It carries the newest table this process has heard of: a read that
// started before an announcement (and may return the older table) is not shared by the requests
// the announcement sent.
func (s *Service) pageRebuildKey(torneo int64, k pageKey) string {
	return strconv.FormatInt(torneo, 10) + "/" + k.String() + "@" + strconv.FormatInt(s.localOf(torneo).knownTabla(), 10)
}

// fromDatabase reads a page from PostgreSQL once for all the requests that want it at the same
// moment. cacheIt stores the page in Redis, for a miss (not when Redis failed).
func (s *Service) fromDatabase(ctx context.Context, torneo int64, k pageKey, cacheIt bool) ([]byte, error) {
	answer := s.rebuilds.DoChan(s.pageRebuildKey(torneo, k), s.rebuild(ctx, torneo, k, cacheIt))
	select {
	case r := <-answer:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.([]byte), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// rebuild reads a page from PostgreSQL at the tournament's current version and keeps it in
// the process and, when cacheIt, in Redis. It runs on ctx's values but not its cancellation:
// the request that started it may leave while others wait for it, or not wait at all.
func (s *Service) rebuild(ctx context.Context, torneo int64, k pageKey, cacheIt bool) func() (any, error) {
	shared := context.WithoutCancel(ctx)
	return func() (any, error) {
		ctx, cancel := context.WithTimeout(shared, rebuildTimeout)
		defer cancel()
		v, err := s.current(ctx, torneo)
		if err != nil {
			s.log.Debug("standings version not read", slog.String("error", err.Error()))
			return nil, err
		}
		return s.readPage(ctx, v, k, cacheIt)
	}
}

// readPage reads an answer at v, keeps it in the process and, when cacheIt, in Redis.
func (s *Service) readPage(ctx context.Context, v store.Version, k pageKey, cacheIt bool) ([]byte, error) {
	var answer any
	keep := true
	if k.tabla != "" {
		// A matchday's answers come from the totals the points rows move: kept only as the
		// version's once they count what its table counts.
		written, err := s.rowsWritten(ctx, v)
		if err != nil {
			return nil, err
		}
		keep = written
	}
	switch {
	case k.tabla == "fechas":
		f, err := s.store.Matchdays(ctx, v.Torneo, v.ID, s.zone)
		if err != nil {
			return nil, err
		}
		answer = f
	case k.tabla != "":
		fecha, _ := time.Parse(time.DateOnly, strings.TrimPrefix(k.tabla, "f"))
		page, err := s.store.MatchdayPage(ctx, v.Torneo, v.ID, fecha, k.pagina, k.porPagina)
		if err != nil {
			return nil, err
		}
		// Only days that have a table are cached: any date could be asked for.
		answer, keep = page, keep && page.Total > 0 && (len(page.Posiciones) > 0 || k.pagina == 1)
	default:
		page, err := s.store.Page(ctx, v, k.pagina, k.porPagina)
		if err != nil {
			s.log.Debug("standings page not read", slog.String("error", err.Error()))
			return nil, err
		}
		// Pages past the end are not cached: any number of them could be asked for.
		answer, keep = page, len(page.Posiciones) > 0 || k.pagina == 1
	}
	body, err := json.Marshal(answer)
	if err != nil {
		return nil, err
	}
	if keep {
		s.localOf(v.Torneo).put(versionOf(v), k, body)
		if cacheIt {
			if err := s.cache.Store(ctx, v.Torneo, versionOf(v), k, body); err != nil {
				s.log.Debug("standings answer not cached", slog.String("error", err.Error()))
			}
		}
	}
	return body, nil
}

// rowsWritten reports whether the points rows count what v's table counts, waiting up to
// rowsWait for them when they do not yet: a result is carried into the table and announced
// before its rows are written (CarryAhead), and the announcement sends browsers to the
// matchday's table at once. Read before the rows and kept as v's, that table would lack the
// result until the next one. The rows are looked for every rowsPoll: waiting in line for a
// lock would hold up the next result's carry.
func (s *Service) rowsWritten(ctx context.Context, v store.Version) (bool, error) {
	written, err := s.store.RowsAgree(ctx, v.Torneo, v.ID, s.zone)
	if err != nil || written {
		return written, err
	}
	s.mu.Lock()
	late := s.rowsLate[v.Torneo] == v.ID
	s.mu.Unlock()
	if late {
		return false, nil // waited for once already: the next answers do not wait again
	}
	deadline := time.Now().Add(rowsWait)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(rowsPoll):
		}
		if written, err := s.store.RowsAgree(ctx, v.Torneo, v.ID, s.zone); err != nil || written {
			return written, err
		}
	}
	s.mu.Lock()
	s.rowsLate[v.Torneo] = v.ID
	s.mu.Unlock()
	s.log.Info("matchday answers served before the result's points rows", slog.Int64("torneo", v.Torneo),
		slog.Int64("version", v.ID))
	return false, nil
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
