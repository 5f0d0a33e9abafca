// Package standings serves the standings: pages cached in Redis under the standings version,
// read from PostgreSQL whenever Redis does not have them or cannot answer, and the pages just
// served kept in the process for a second (localPages).
package standings

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"

	"prode/platform/apierror"
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
	Page(ctx context.Context, pagina, porPagina int) (store.Pagina, error)
	Player(ctx context.Context, id int64, porPagina int) (store.MiPosicion, error)
	Version(ctx context.Context) (int64, error)
}

var errNoPlayer = apierror.NotFound("Todavía no estás en la tabla de posiciones: ingresá de nuevo para registrarte.")

// rebuildTimeout bounds one read of a page from PostgreSQL, shared by every request waiting
// for it.
const rebuildTimeout = 10 * time.Second

// Service reads the standings.
type Service struct {
	store    Store
	cache    *Cache
	local    *localPages
	rebuilds singleflight.Group // one PostgreSQL read per page at a time (fromDatabase)
	requests *prometheus.CounterVec
	log      *slog.Logger
}

// New builds the service and registers the cache metric on reg. Pages are kept in the process
// for localFreshFor (LocalFreshFor in production; 0 keeps none).
func New(st Store, cache *Cache, localFreshFor time.Duration, reg prometheus.Registerer, log *slog.Logger) *Service {
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "prode_standings_cache_requests_total",
		Help: "Standings pages asked for, by where they came from: local (the process's memory), hit (Redis), miss or error (PostgreSQL), stale (the process's memory while PostgreSQL is read again).",
	}, []string{"result"})
	for _, r := range []string{"local", "hit", "miss", "error", "stale"} {
		requests.WithLabelValues(r)
	}
	reg.MustRegister(requests)
	return &Service{store: st, cache: cache, local: newLocalPages(localFreshFor), requests: requests, log: log}
}

// Page returns the JSON body of one page: from the process's memory when its version was
// confirmed within localFreshFor, else from Redis when it has the page at the current version,
// else from PostgreSQL (and then cached). A Redis outage never fails a request.
func (s *Service) Page(ctx context.Context, pagina, porPagina int) ([]byte, error) {
	if body, ok := s.local.get(pagina, porPagina); ok {
		s.requests.WithLabelValues("local").Inc()
		return body, nil
	}
	body, version, cacheErr := s.cache.Page(ctx, pagina, porPagina)
	switch {
	case cacheErr == nil:
		s.requests.WithLabelValues("hit").Inc()
		s.local.put(version, pagina, porPagina, body)
		return body, nil
	case errors.Is(cacheErr, errMiss):
		s.requests.WithLabelValues("miss").Inc()
	default:
		s.requests.WithLabelValues("error").Inc()
		s.log.Debug("standings cache unavailable", slog.String("error", cacheErr.Error()))
	}
	cacheIt := errors.Is(cacheErr, errMiss)
	// Stale while read again: with the page held from moments ago, answer with it and let one
	// read from PostgreSQL run in the background. In the match-day rush of docs/benchmarks.md
	// (100,000 players, a result being scored) that read took two seconds on a busy database,
	// and every request of those two seconds waited for it (p95 2.1 s).
	if body, ok := s.local.stale(pagina, porPagina); ok {
		s.requests.WithLabelValues("stale").Inc()
		s.rebuilds.DoChan(pageRebuildKey(pagina, porPagina), s.rebuild(ctx, pagina, porPagina, cacheIt))
		return body, nil
	}
	return s.fromDatabase(ctx, pagina, porPagina, cacheIt)
}

func pageRebuildKey(pagina, porPagina int) string {
	return strconv.Itoa(pagina) + "/" + strconv.Itoa(porPagina)
}

// fromDatabase reads a page from PostgreSQL once for all the requests that want it at the same
// moment. When a page expires in Redis (or Redis fails) under a rush, every request in flight
// misses at once; each ranking every player itself buried PostgreSQL at 100,000 players (the
// match-day rush of docs/benchmarks.md: timeouts on every service, on a page that one query
// rebuilds). cacheIt stores the page in Redis, for a miss (not when Redis failed).
func (s *Service) fromDatabase(ctx context.Context, pagina, porPagina int, cacheIt bool) ([]byte, error) {
	answer := s.rebuilds.DoChan(pageRebuildKey(pagina, porPagina), s.rebuild(ctx, pagina, porPagina, cacheIt))
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

// rebuild reads a page from PostgreSQL and keeps it in the process and, when cacheIt, in
// Redis. It runs on ctx's values but not its cancellation: the request that started it may
// leave while others wait for it, or not wait at all (a stale answer).
func (s *Service) rebuild(ctx context.Context, pagina, porPagina int, cacheIt bool) func() (any, error) {
	shared := context.WithoutCancel(ctx)
	return func() (any, error) {
		ctx, cancel := context.WithTimeout(shared, rebuildTimeout)
		defer cancel()
		page, err := s.store.Page(ctx, pagina, porPagina)
		if err != nil {
			s.log.Debug("standings page not read", slog.String("error", err.Error()))
			return nil, err
		}
		body, err := json.Marshal(page)
		if err != nil {
			return nil, err
		}
		// Pages past the end are not cached: any number of them could be asked for.
		if len(page.Posiciones) > 0 || pagina == 1 {
			s.local.put(page.Version, pagina, porPagina, body)
			if cacheIt {
				if err := s.cache.Store(ctx, page.Version, pagina, porPagina, body); err != nil {
					s.log.Debug("standings page not cached", slog.String("error", err.Error()))
				}
			}
		}
		return body, nil
	}
}

// Player returns the signed-in player's place.
func (s *Service) Player(ctx context.Context, id int64) (store.MiPosicion, error) {
	m, err := s.store.Player(ctx, id, PorPagina)
	if errors.Is(err, store.ErrNoPlayer) {
		return m, errNoPlayer
	}
	return m, err
}

// Publish caches page 1 at the version PostgreSQL has now and moves the version key to it.
// Scoring calls it after every transaction it commits.
func (s *Service) Publish(ctx context.Context) error {
	page, err := s.store.Page(ctx, 1, PorPagina)
	if err != nil {
		return err
	}
	body, err := json.Marshal(page)
	if err != nil {
		return err
	}
	s.local.put(page.Version, 1, PorPagina, body)
	return s.cache.Store(ctx, page.Version, 1, PorPagina, body)
}

// Repair keeps Redis's version key equal to PostgreSQL's version, every interval until ctx
// ends: it heals a missed publish, and rebuilds the cache (version and page 1) once Redis is
// back after an outage.
func (s *Service) Repair(ctx context.Context, interval time.Duration) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if err := s.RepairOnce(ctx); err != nil && ctx.Err() == nil {
				s.log.Debug("standings cache repair failed", slog.String("error", err.Error()))
			}
		}
	}
}

// RepairOnce is one round of Repair. It also keeps page 1 warm: once it has expired in Redis
// (pageTTL after its last publish), it is read again here rather than by the first request
// that misses it. A rush that starts after a quiet minute otherwise found the page gone and
// waited for PostgreSQL (209 requests in the match-day rush of docs/benchmarks.md).
func (s *Service) RepairOnce(ctx context.Context) error {
	version, err := s.store.Version(ctx)
	if err != nil {
		return err
	}
	set, err := s.cache.SetVersion(ctx, version)
	if err != nil {
		return err
	}
	if set {
		s.log.Info("standings cache rebuilt", slog.Int64("version", version))
		return s.Publish(ctx)
	}
	cached, err := s.cache.HasPage(ctx, version, 1, PorPagina)
	if err != nil || cached {
		return err
	}
	return s.Publish(ctx)
}
