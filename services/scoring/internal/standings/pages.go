package standings

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"prode/platform/postgres"
	"prode/scoring/internal/store"
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
