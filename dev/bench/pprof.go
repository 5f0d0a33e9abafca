package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// serviceProfile is where one service's CPU went during an extra, unmeasured run of a load
// benchmark: a CPU profile taken from its admin port (/debug/pprof/profile, PPROF=true),
// each sample charged to one part of the request's path.
type serviceProfile struct {
	Service string
	Seconds int
	File    string        // the raw profile
	Parts   []profilePart // the parts in profilePatterns order, then "other"
	Top     []profilePart // the functions that used the most CPU themselves (flat)
}

type profilePart struct {
	Name  string
	Share float64 // of the service's CPU samples
}

// profilePatterns are the parts of a request's path, checked from each sample's innermost
// frame outwards: a sample is charged to the first frame that matches one, so that time in
// a system call is the kernel's, whoever made it, and an allocation is the allocator's.
var profilePatterns = []struct {
	name string
	re   *regexp.Regexp
}{
	{"system calls (socket reads and writes, epoll)", regexp.MustCompile(`^(syscall\.|internal/runtime/syscall\.|runtime/internal/syscall\.)`)},
	{"garbage collection", regexp.MustCompile(`^runtime\.(gcBgMarkWorker|gcDrain|scanobject|markroot|gcAssist|bgsweep|bgscavenge|sweepone|gcMark)`)},
	{"memory allocation", regexp.MustCompile(`^runtime\.(mallocgc|newobject|makeslice|growslice|makemap|rawstring|concatstring|slicebytetostring)`)},
	{"goroutine scheduling", regexp.MustCompile(`^runtime\.(schedule|findRunnable|park_m|goexit|mcall|stealWork|ready|wakep|notesleep|futex|runqgrab|mPark|stopm|startm|netpollblock)`)},
	{"pgx (PostgreSQL protocol)", regexp.MustCompile(`^github\.com/jackc/`)},
	{"JSON", regexp.MustCompile(`^encoding/json\.`)},
	{"Prometheus metrics", regexp.MustCompile(`^github\.com/prometheus/`)},
	{"Redis client", regexp.MustCompile(`^github\.com/redis/`)},
	{"crypto (session HMAC, request id)", regexp.MustCompile(`^(crypto/|vendor/golang\.org/x/crypto)`)},
	{"log/slog", regexp.MustCompile(`^log/slog\.`)},
	{"Prode's own code (handlers, middleware)", regexp.MustCompile(`^prode/`)},
	{"gin (routing, context)", regexp.MustCompile(`^github\.com/gin-gonic/`)},
	{"net/http (parsing, headers, writing)", regexp.MustCompile(`^(net/http\.|net/textproto\.|bufio\.|net\.)`)},
}

// profileDuring takes a CPU profile of the service at admin for d while load runs, and keeps
// it as file, for `go tool pprof`.
func profileDuring(ctx context.Context, service, admin, file string, d time.Duration, load func(context.Context) error) (serviceProfile, error) {
	sp := serviceProfile{Service: service, Seconds: int(d.Seconds()), File: file}
	type result struct {
		p   *profile.Profile
		err error
	}
	got := make(chan result, 1)
	go func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", admin, sp.Seconds), nil)
		if err != nil {
			got <- result{err: err}
			return
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- result{err: err}
			return
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			got <- result{err: fmt.Errorf("%s: %s (is PPROF=true set?)", req.URL, res.Status)}
			return
		}
		raw, err := io.ReadAll(res.Body)
		if err == nil {
			err = os.WriteFile(file, raw, 0o644)
		}
		if err != nil {
			got <- result{err: err}
			return
		}
		p, err := profile.ParseData(raw)
		got <- result{p, err}
	}()
	loadErr := load(ctx)
	r := <-got
	if loadErr != nil {
		return sp, loadErr
	}
	if r.err != nil {
		return sp, r.err
	}
	sp.Parts, sp.Top = breakDown(r.p)
	return sp, nil
}

// breakDown charges each sample to a part (profilePatterns) and sums the flat time by function.
func breakDown(p *profile.Profile) (parts, top []profilePart) {
	cpu := len(p.SampleType) - 1 // cpu nanoseconds, after the sample count
	byPart := make([]float64, len(profilePatterns)+1)
	byFunc := map[string]float64{}
	var total float64
	for _, s := range p.Sample {
		v := float64(s.Value[cpu])
		total += v
		part := len(profilePatterns) // other
	frames:
		for _, loc := range s.Location {
			for _, line := range loc.Line { // inlined callees first, their caller last
				name := line.Function.Name
				for j, pat := range profilePatterns {
					if pat.re.MatchString(name) {
						part = j
						break frames
					}
				}
			}
		}
		byPart[part] += v
		if len(s.Location) > 0 && len(s.Location[0].Line) > 0 {
			byFunc[s.Location[0].Line[0].Function.Name] += v
		}
	}
	if total == 0 {
		return nil, nil
	}
	for i, v := range byPart {
		name := "other (runtime, the rest)"
		if i < len(profilePatterns) {
			name = profilePatterns[i].name
		}
		parts = append(parts, profilePart{name, v / total})
	}
	for name, v := range byFunc {
		top = append(top, profilePart{name, v / total})
	}
	slices.SortFunc(top, func(a, b profilePart) int {
		if a.Share != b.Share {
			if a.Share > b.Share {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return parts, top[:min(10, len(top))]
}

// share is the part of the CPU charged to the parts whose names start with prefix.
func (sp serviceProfile) share(prefix string) float64 {
	var total float64
	for _, p := range sp.Parts {
		if strings.HasPrefix(p.Name, prefix) {
			total += p.Share
		}
	}
	return total
}

// markdown is the profile as a table of parts and a line of the busiest functions.
func (sp serviceProfile) markdown(w func(string, ...any), admin string) {
	if len(sp.Parts) == 0 {
		w("No profile was taken.")
		w("")
		return
	}
	w("Where %s's CPU went, from a %d s CPU profile taken during one more run of the same load (not", sp.Service, sp.Seconds)
	w("one of the measured ones): `curl -o cpu.pprof '%s/debug/pprof/profile?seconds=%d'` (admin port,", admin, sp.Seconds)
	w("PPROF=true; this run's is kept in `%s`), then `go tool pprof -top cpu.pprof`. Each sample is", sp.File)
	w("charged to the innermost frame that belongs to one of these parts, so the column adds up to 100 %%.")
	w("")
	w("| part of the request's path | share of %s's CPU |", sp.Service)
	w("|---|---|")
	for _, p := range sp.Parts {
		if p.Share >= 0.005 {
			w("| %s | %.0f %% |", p.Name, 100*p.Share)
		}
	}
	w("")
	var names []string
	for _, f := range sp.Top {
		names = append(names, fmt.Sprintf("`%s` %.1f %%", f.Name, 100*f.Share))
	}
	w("Busiest functions (own time): %s.", strings.Join(names, ", "))
	w("")
}
