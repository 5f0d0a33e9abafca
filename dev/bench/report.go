package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// report is everything one run measured.
type report struct {
	Machine []string
	Config  config

	LoadPlayers, LoadPredictions time.Duration
	// LoadPast: a finished past tournament loaded and scored beside the current one.
	LoadPast        time.Duration
	PastPredictions int64
	Predictions     int64

	Standings, Unplayed, Save comparison
	SaveMatches               int

	ScoredMatch       int64
	ScoredPredictions int64
	Result            durationFigures
	ResultTx          scoringTx

	FirstScoring        time.Duration
	Rescore             durationFigures
	RescoreTx           scoringTx
	RescoredPredictions int64

	Rush rushFigures
	Live streamFigures

	// Issue 16: a league's table under load, and a bonus question's right answer to the standings.
	League        comparison
	LeagueMembers int
	LeagueURL     string
	Bonus         durationFigures
	BonusTx       scoringTx
	BonusAnswers  int64

	Web    webFigures
	Memory *memorySampler
}

func reached(ok bool) string {
	if ok {
		return "reached"
	}
	return "**missed**"
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

// writeRunTimes lists each run's time of a comparison with the bare SQL, Prode's then the SQL's.
func writeRunTimes(w func(format string, args ...any), d durationFigures) {
	w("- Prode, each run: %s", durations(d.Subject))
	w("- bare SQL, each run: %s", durations(d.Reference))
}

// writeScoredRuns lists each run of one change scored beside the bare SQL, then what scoring's
// own transaction took during them, as one paragraph.
func writeScoredRuns(w func(format string, args ...any), d durationFigures, tx scoringTx) {
	writeRunTimes(w, d)
	w("- scoring's own transaction, mean (prode_scoring_duration_seconds): %s over %.0f transactions", ms(tx.Mean()), tx.Count)
	w("")
}

func durations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = ms(d)
	}
	return strings.Join(parts, ", ")
}

// Markdown is docs/benchmarks.md.
func (r report) Markdown() string {
	c := r.Config
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	standingsRatio := ratio(r.Standings.Subject.RPS, r.Standings.Reference.RPS)
	unplayedRatio := ratio(r.Unplayed.Subject.RPS, r.Unplayed.Reference.RPS)
	saveRatio := ratio(r.Save.Subject.RPS, r.Save.Reference.RPS)

	w("# Benchmarks (issue 5)")
	w("")
	w("Written by `%s` (dev/bench.sh, dev/bench/) on %s. Every figure below comes from that one run;", c.Command, time.Now().UTC().Format("2006-01-02 15:04 MST"))
	w("each subject was measured beside its reference, alternating runs, on the same machine. Medians of")
	w("%d runs of %s each for the load benchmarks (after one warm-up run each), %d for one match's", c.Repeats, c.RunTime, c.ScoringRepeats)
	w("scoring, %d for the full rescore. The goals are targets, not CI checks.", c.RescoreRepeats)
	w("")
	w("## What limits each figure, and what was tried")
	w("")
	w("- **Two cores for everything.** wrk, the service, PostgreSQL and Redis share them; the \"CPU during the")
	w("  measured runs\" columns below say where they went. nginx, the reference, needs one program; the")
	w("  service path needs two or three.")
	w("- **Where a service's CPU goes.** Each load section ends with a CPU profile of the service under that")
	w("  load. Serving page 1 of the standings, %.0f %% of scoring's CPU is in system calls (reading the", 100*r.Standings.Profile.share("system calls"))
	w("  request, writing the answer, epoll) and %.0f %% in net/http itself; for the unplayed matches, %.0f %% and", 100*r.Standings.Profile.share("net/http"), 100*r.Unplayed.Profile.share("system calls"))
	w("  %.0f %% of fixtures'. Go's net/http makes about five system calls per keep-alive request (the", 100*r.Unplayed.Profile.share("net/http"))
	w("  request, a background read that finds nothing, the headers, the body, the next read) where nginx")
	w("  makes two or three; our own code and gin are a few per cent. That, not the handlers, is the gap")
	w("  to nginx.")
	w("- **GET /api/posiciones.** First measured at 0.32 of nginx with two Redis GETs per request (version")
	w("  key, then page). Pages are now kept in the process for a second (scoring/internal/standings,")
	w("  localPages; a version published by this process shows at once, by another replica within the")
	w("  second). Then, in order: the access log line only for errors and slow requests (0.40); the")
	w("  middleware's per-request logger, client address and headers made only when used or shared")
	w("  (44 allocations a request down to 23); cached pages sent with Content-Length (httpserver.JSONBytes:")
	w("  without it net/http sent any body over 2 KiB chunked, one more write to the socket per answer);")
	w("  and GOGC 200 (platform/service/runtime.go), because the collector took 6-16 %% of the CPU with")
	w("  heaps of a few MiB (garbage collection is now %.0f %% of scoring's profile here; GOGC 400 took it", 100*r.Standings.Profile.share("garbage collection"))
	w("  to 2 %% but scoring's memory in the rush to 128-165 MiB, against 44 MiB at Go's default of 100).")
	w("- **CPU per request, in this run.** Page 1 of the standings costs the scoring process %.0f µs of", r.Standings.SubjectCPU.microsPerRequest("scoring", r.Standings.Subject.RPS))
	w("  CPU per request, nginx %.0f µs to send the same bytes; the unplayed matches cost fixtures %.0f µs,", r.Standings.ReferenceCPU.microsPerRequest("nginx", r.Standings.Reference.RPS),
		r.Unplayed.SubjectCPU.microsPerRequest("fixtures", r.Unplayed.Subject.RPS))
	w("  nginx %.0f µs. Each service is held to about one core (wrk and the kernel take the rest), so the", r.Unplayed.ReferenceCPU.microsPerRequest("nginx", r.Unplayed.Reference.RPS))
	w("  ratio is nginx's cost over ours: 0.45 asks Go's net/http, gin and our middleware to come within")
	w("  2.2 times a static file served by nginx.")
	w("- **POST a prediction.** A save costs predictions %.0f µs of CPU and PostgreSQL %.0f µs; under pgbench", r.Save.SubjectCPU.microsPerRequest("predictions", r.Save.Subject.RPS),
		r.Save.SubjectCPU.microsPerRequest("postgres", r.Save.Subject.RPS))
	w("  the same statement costs PostgreSQL %.0f µs and pgbench %.0f µs (its backends' CPU counted from the", r.Save.ReferenceCPU.microsPerRequest("postgres", r.Save.Reference.RPS),
		r.Save.ReferenceCPU.microsPerRequest("pgbench", r.Save.Reference.RPS))
	w("  postmaster's reaped children). First measured at 0.5 to 0.75 of pgbench (it moved from run to run)")
	w("  with two round trips per save, the session check (players.sesiones_vigentes, so that 'Salir' ends a")
	w("  session on every service at once) and the upsert; the write routes now check only the cookie's")
	w("  signature before the handler (session.Signed) and the upsert itself guards on the session being")
	w("  open, so a save is one statement, the one pgbench runs. What is left is the HTTP request itself:")
	w("  in the profile, %.0f %% of predictions' CPU is system calls (the client's socket and PostgreSQL's),", 100*r.Save.Profile.share("system calls"))
	w("  %.0f %% pgx, %.0f %% net/http, %.0f %% JSON, %.0f %% memory allocation and collection. pgbench has no HTTP", 100*r.Save.Profile.share("pgx"), 100*r.Save.Profile.share("net/http"),
		100*r.Save.Profile.share("JSON"), 100*(r.Save.Profile.share("memory allocation")+r.Save.Profile.share("garbage collection")))
	w("  request to read, no session to verify and no answer to encode, and on two cores every microsecond")
	w("  the service spends is taken from PostgreSQL. How much PostgreSQL spends per statement also moves")
	w("  with the number of backends at once: on one machine of this kind (2026-11-24, the smoke run's 2,000")
	w("  players) pgbench ran the upsert at 382 µs of PostgreSQL CPU per transaction with 32 connections and")
	w("  139 µs with 8, and the service (a pool of 20) went as fast as pgbench with 32. The ratio therefore")
	w("  moves from machine to machine: 0.45 on the run of 2026-11-23, 0.61 on 2026-11-25, %.2f in this one.", saveRatio)
	w("  The quiet run of 2026-11-27 found pgbench twice as fast as before (22,832 tx/s, 74 µs of")
	w("  PostgreSQL a statement) and the service at 0.49: with PostgreSQL that cheap, the service's own")
	w("  57 µs a request decide the ratio. Saves that arrive together now share one statement")
	w("  (predictions/internal/store.Batched: up to 64 rows, 4 statements in flight, every row under the")
	w("  same guards; a save that finds none in flight goes alone, at once), so PostgreSQL pays a")
	w("  statement's round trip, parse and commit once a batch; pgbench still runs one save a transaction.")
	w("- **The standings under a rush, at 100,000 players.** The first full run with the rush failed it:")
	w("  p95 10 s reading the standings and 5 s saving, 7 %% of reads timed out, scoring at 255 MiB. Page")
	w("  1 expires in Redis a minute after the last result; every request in flight then missed at")
	w("  once and ranked the 100,000 players itself, PostgreSQL fell behind, Redis reads ran past their")
	w("  250 ms budget and sent more requests to PostgreSQL. Each process now reads a page from")
	w("  PostgreSQL once for all the requests waiting for it (standings.Service.fromDatabase,")
	w("  singleflight): the same wrk load then vegeta at 1,000 reads/s gave no error, p99 151 ms.")
	w("- **The match-day rush at 100,000 players.** The second full run of 2026-11-24 missed it with")
	w("  reads of the standings at p95 2.1 s: requests that found neither a fresh page in the process nor")
	w("  Redis all waited for one read of page 1 from a PostgreSQL busy scoring 100,000 predictions. Such")
	w("  a request is now answered with the page the process served within 30 s while one read runs in")
	w("  the background (standings.Service.Page, \"stale\"). The next run still counted 209 reads that")
	w("  waited: the rush began after a quiet minute in which page 1 had expired in Redis, so the first")
	w("  reads had nothing to serve. The repair loop now publishes page 1 again whenever it has expired")
	w("  (standings.Service.RepairOnce). In this run scoring's answers came from: %s; the two cores", sources(r.Rush.Sources))
	w("  went to: %s. PostgreSQL scores the match beside the saves on the same two cores.", r.Rush.CPU.String())
	w("- **GET /api/partidos-sin-jugar.** First measured at 0.09 of nginx: a PostgreSQL query and the JSON")
	w("  encoding of 64 matches per request. The encoded answer is now kept for a second and forgotten")
	w("  whenever an organiser changes anything through this process (fixtures/internal/http,")
	w("  recentBody); the cut-off stays enforced by the database clock when a prediction is written.")
	w("  The rest is as for the standings.")
	w("- **A result to the standings.** The same statements as the bare SQL, plus the outbox, the")
	w("  NOTIFY wake-up, page 1 read again and published: tens of milliseconds on top of seconds.")
	w("- **Full rescore.** First measured at 3.7x (124 s against 33 s) with one transaction per match:")
	w("  each one went over nearly every page of predictions.apuestas, because a match's predictions")
	w("  are spread over the whole table (they arrive player by player). Scoring now takes up to 64")
	w("  matches per transaction, one pass for a whole tournament (scoring.DefaultMatchesPerTransaction).")
	w("%s", leagueBullets)
	w("")
	writeMachine(w, r.Machine)
	w("The stack is `make up`'s, on ports of its own: the four Go services, PostgreSQL 15 (fsync off, as")
	w("every throwaway cluster here), Redis, nginx. The load generator is wrk with one thread and %d", c.Connections)
	w("connections on the same two cores, so every throughput is shared with wrk itself.")
	w("")
	w("## Data")
	w("")
	w("%d players, each with a prediction for all 64 matches: %d predictions, loaded with COPY", c.Players, r.Predictions)
	w("(players in %s, predictions in %s, indexes included). %d of the players have a session.", ms(r.LoadPlayers), ms(r.LoadPredictions), min(c.Sessions, c.Players))
	w("Beside the current tournament, a finished past one (%q: the same 64 matches four years back,", pastTournament)
	w("every player's predictions, %d of them, scored through the outbox in %s), so that every", r.PastPredictions, ms(r.LoadPast))
	w("figure is taken with two tournaments loaded; the standings and results read are the current one's.")
	w("A league of %d of the players (the first by e-mail: its owner created it through the API, the", r.LeagueMembers)
	w("others were added in one INSERT as if they had joined) and, after the full rescore, a bonus question")
	w("of the current tournament that every registered player answered (%d answers, loaded in one INSERT).", r.BonusAnswers)
	w("")
	w("## Summary")
	w("")
	w("| benchmark | Prode | reference in the same run | ratio | goal | |")
	w("|---|---|---|---|---|---|")
	w("| GET /api/posiciones, page 1 of 100 rows (%d bytes) | %.0f req/s, p99 %.2f ms | nginx, same bytes as a file: %.0f req/s, p99 %.2f ms | %.2f | ≥ 0.45 | %s |",
		r.Standings.BodyBytes, r.Standings.Subject.RPS, r.Standings.Subject.P99MS, r.Standings.Reference.RPS, r.Standings.Reference.P99MS, standingsRatio, reached(standingsRatio >= 0.45))
	w("%s", r.leagueRow())
	w("| GET /api/partidos-sin-jugar (%d bytes) | %.0f req/s, p99 %.2f ms | nginx, same bytes as a file: %.0f req/s, p99 %.2f ms | %.2f | ≥ 0.45 | %s |",
		r.Unplayed.BodyBytes, r.Unplayed.Subject.RPS, r.Unplayed.Subject.P99MS, r.Unplayed.Reference.RPS, r.Unplayed.Reference.P99MS, unplayedRatio, reached(unplayedRatio >= 0.45))
	w("%s", r.saveRow())
	w("| a result entered → the standings visible in the API (%d predictions for the match) | %s | the bare set-based SQL scoring that match: %s | %.2fx | ≤ 1.5x | %s |",
		r.ScoredPredictions, ms(medianDuration(r.Result.Subject)), ms(medianDuration(r.Result.Reference)), r.Result.Ratio(), reached(r.Result.Ratio() <= 1.5))
	w("| a bonus question's right answer entered → its points in the standings in the API (%d answers) | %s | the bare set-based SQL of that right answer: %s | %.2fx | ≤ %.1fx | %s |",
		r.BonusAnswers, ms(medianDuration(r.Bonus.Subject)), ms(medianDuration(r.Bonus.Reference)), r.Bonus.Ratio(), scoringGoal, reached(scoringGoalMet(r.Bonus)))
	w("| a full rescore of all 64 matches (%d predictions) | %s | the bare SQL over every prediction: %s | %.2fx | ≤ 1.5x | %s |",
		r.RescoredPredictions, ms(medianDuration(r.Rescore.Subject)), ms(medianDuration(r.Rescore.Reference)), r.Rescore.Ratio(), reached(r.Rescore.Ratio() <= 1.5))
	idleMax := 0.0
	for _, s := range services {
		idleMax = max(idleMax, r.Memory.Peak("idle", s))
	}
	w("| match-day rush: %d players saving %d/s, the standings read %d/s, a result scored meanwhile | errors %.3f %% and %.3f %%; p95 %s and %s | — | — | errors < 0.1 %%, p95 < 200 ms | %s |",
		r.Rush.Players, r.Rush.SaveRate, r.Rush.ReadRate, 100*errorRate(r.Rush.Saves), 100*errorRate(r.Rush.Standings),
		msFrac(r.Rush.Saves.Latencies.P95), msFrac(r.Rush.Standings.Latencies.P95), reached(r.Rush.Met()))
	w("| in that rush: a player who signs up, on every page of the table (%d sign-ups); the result's event at %d open streams | sign-up to listed: median %s, max %s; result to event: median %s, %d of %d heard | — | — | sign-ups ≤ 2 s, every stream | %s |",
		len(r.Rush.Live.SignUps), r.Rush.Live.Streams, msFrac(medianDuration(r.Rush.Live.SignUps)), msFrac(maxOf(r.Rush.Live.SignUps)),
		msFrac(medianDuration(r.Rush.Live.ToEvent)), len(r.Rush.Live.ToEvent), r.Rush.Live.Streams, reached(r.Rush.Live.Met()))
	w("| memory of each service, idle | largest: %.1f MiB | — | — | < 64 MiB | %s |", idleMax, reached(idleMax < 64))
	w("| first load of the web app in headless Chromium | initial JS %.1f KB gzip; first contentful paint %.0f ms | — | — | JS ≤ 150 KB gzip | %s |",
		r.Web.InitialJSKB, r.Web.FCPMS, reached(r.Web.InitialJSKB <= 150))
	w("")

	r.httpSection(w, "GET /api/posiciones", r.Standings, c.ScoringAdmin, c.ScoringBase+"/api/posiciones", "posiciones.json",
		"The standings are served from Redis: one GET of the version key, one of the page at that version, then the cached bytes as they are.")
	r.writeLeague(w)
	r.httpSection(w, "GET /api/partidos-sin-jugar", r.Unplayed, c.FixturesAdmin, c.FixturesBase+"/api/partidos-sin-jugar", "partidos-sin-jugar.json",
		"Every request reads the unplayed matches from PostgreSQL (one query over 64 rows with the cut-off by the database clock) and encodes them.")

	r.writeSave(w)

	w(`## A result entered, to the standings in the API

Prode: `+"`PUT %s/api/partidos/%d/resultado`"+` as the organiser (results alternate 1-0 and 0-1, so
that every run changes the table), then `+"`GET %s/api/posiciones`"+` every 2 ms until its body
changes. In between: the fixtures transaction with its outbox event and NOTIFY, the consumer's
wake-up, the scoring transaction over the match's %d predictions, and page 1 read again and
published to Redis.

Reference: the bare SQL (dev/bench/scoring_benchmarks.go, bareScoreMatch): the totals moved by new
minus old points and the match's points replaced, on the base tables, in one transaction rolled back.
`, c.FixturesBase, r.ScoredMatch, c.ScoringBase, r.ScoredPredictions)
	writeScoredRuns(w, r.Result, r.ResultTx)

	w("## Full rescore")
	w("")
	w("Every other match first got a result (teams for the knock-out matches, a result and an outbox event")
	w("each, in one transaction); the consumer applied them all in %s. Then the scoring service was", ms(r.FirstScoring))
	w("restarted with the other SCORING_KNOCKOUT setting, which makes it rescore every match (up to 64")
	w("matches per transaction, scoring.DefaultMatchesPerTransaction) before it records the setting: timed from")
	w("the process start to the setting recorded.")
	w("")
	w("Reference: the bare SQL (bareRescore): every point and total deleted and computed again from the %d", r.RescoredPredictions)
	w("predictions in one transaction, rolled back.")
	w("")
	writeRunTimes(w, r.Rescore)
	w("- scoring's own transactions since the last restart (the rescore): %.0f, mean %s", r.RescoreTx.Count, ms(r.RescoreTx.Mean()))
	w("")

	r.writeBonus(w)

	r.writeRush(w)
	if r.Live.Streams > 0 {
		w("%s", r.Live.Markdown())
	}

	w("%s", scaleSection)
	w("## Memory")
	w("")
	w("Resident memory (VmRSS) of each service, sampled every 200 ms: idle after the data was loaded, and the")
	w("largest seen under the load benchmarks, the scoring benchmarks and the web app's loads.")
	w("")
	w("| service | idle | under load (GET, POST) | scoring benchmarks | web first load |")
	w("|---|---|---|---|---|")
	for _, s := range services {
		w("| %s | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB |", s, r.Memory.Peak("idle", s), r.Memory.Peak("load", s), r.Memory.Peak("scoring", s), r.Memory.Peak("web", s))
	}
	w("")

	w("## First load of the web app")
	w("")
	w("Initial JavaScript (the entry chunk and its static imports, gzip -9, web/scripts/bundle-size.mjs):")
	w("%.1f KB. Then %d loads of %s in headless Chromium, each in a fresh context (empty cache), through", r.Web.InitialJSKB, r.Web.Runs, c.WebURL)
	w("the stack's nginx on loopback (`node web/scripts/first-load.mjs %s %d`), medians:", c.WebURL, r.Web.Runs)
	w("")
	w("- first contentful paint %.0f ms, DOMContentLoaded %.0f ms, load %.0f ms", r.Web.FCPMS, r.Web.DCLMS, r.Web.LoadMS)
	w("- %.0f requests, %.1f KB of script bytes as transferred", r.Web.Requests, r.Web.ScriptBytes/1024)
	w("")
	return sb.String()
}

func (r report) httpSection(w func(string, ...any), name string, c comparison, admin, url, file, how string) {
	w("## %s", name)
	w("")
	w("%s", how)
	w("")
	w("Commands: `wrk -t1 -c%d -d%ds %s` and, for the reference, the same against `%s/%s`", r.Config.Connections, int(r.Config.RunTime.Seconds()), url, r.Config.ReferenceURL, file)
	w("(an nginx of its own serving the bytes the service answered, keep-alive unlimited). Errors: %d of", c.Subject.Errors)
	w("%d requests through the service, %d of %d for nginx.", c.Subject.Requests, c.Reference.Errors, c.Reference.Requests)
	w("")
	w("| | throughput | p50 | p95 | p99 | CPU during the measured runs |")
	w("|---|---|---|---|---|---|")
	w("| Prode | %.0f req/s | %.2f ms | %.2f ms | %.2f ms | %s |", c.Subject.RPS, c.Subject.P50MS, c.Subject.P95MS, c.Subject.P99MS, c.SubjectCPU.String())
	w("| nginx | %.0f req/s | %.2f ms | %.2f ms | %.2f ms | %s |", c.Reference.RPS, c.Reference.P50MS, c.Reference.P95MS, c.Reference.P99MS, c.ReferenceCPU.String())
	w("")
	c.Profile.markdown(w, admin)
}

// writeRush is the match-day rush section, in docs/benchmarks.md and alone in `make soak`'s
// report.
func (r report) writeRush(w func(format string, args ...any)) {
	c := r.Config
	w("## Match-day rush (issue 6)")
	w("")
	w("For %s at once, at fixed rates (vegeta, an open load: each request is timed from when it was due,", c.RushTime)
	w("so a slow answer cannot hold the next ones back): %d predictions saved per second by %d players with", r.Rush.SaveRate, r.Rush.Players)
	w("a session (random player, open match and score, as in the POST benchmark), and %d reads per second of", r.Rush.ReadRate)
	w("`GET /api/posiciones`. %s in, the organiser enters a new result for match %d, whose %d predictions", r.Rush.ResultAfter, r.ScoredMatch, r.ScoredPredictions)
	w("scoring then scores under the load. Thresholds: errors below 0.1 %%, p95 below 200 ms, no")
	w("acknowledged save lost.")
	w("")
	w("| load | offered | requests | errors | answered | p50 | p95 | p99 | max |")
	w("|---|---|---|---|---|---|---|---|---|")
	for _, l := range []struct {
		name    string
		offered int
		m       vegeta.Metrics
	}{{"saving predictions", r.Rush.SaveRate, r.Rush.Saves}, {"reading the standings", r.Rush.ReadRate, r.Rush.Standings}} {
		w("| %s | %d/s | %d | %d (%.3f %%) | %.0f/s | %s | %s | %s | %s |", l.name, l.offered, l.m.Requests,
			failed(l.m), 100*errorRate(l.m), l.m.Throughput,
			msFrac(l.m.Latencies.P50), msFrac(l.m.Latencies.P95), msFrac(l.m.Latencies.P99), msFrac(l.m.Latencies.Max))
	}
	w("")
	w("Every save went to a (player, match) pair of its own: %d acknowledged with 2xx, %d predictions", r.Rush.Acknowledged, r.Rush.Stored)
	w("changed in the database during the rush, so %d acknowledged saves lost.", r.Rush.Lost())
	if codes := rushCodes(r.Rush); codes != "" {
		w("")
		w("Answers other than 2xx: %s.", codes)
	}
	w("")
	w("CPU during the rush (the load generator is `bench`, in process): %s. Scoring's answers of the", r.Rush.CPU.String())
	w("standings by where they came from (prode_standings_cache_requests_total): %s.", sources(r.Rush.Sources))
	w("")
	r.Rush.Live.markdown(w)
}

// sources lists the standings' answers by source, most first.
func sources(counts map[string]float64) string {
	names := slices.Collect(maps.Keys(counts))
	slices.SortFunc(names, func(a, b string) int { return int(counts[b] - counts[a]) })
	var parts []string
	for _, n := range names {
		if counts[n] > 0 {
			parts = append(parts, fmt.Sprintf("%s %.0f", n, counts[n]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// RushMarkdown is the report of a rush-only run (dev/bench.sh rush).
func (r report) RushMarkdown() string {
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	w("# Match-day rush")
	w("")
	w("Written by `%s`, which fails when a threshold is missed: errors below 0.1 %%, p95 below", r.Config.Command)
	w("200 ms, for both loads, and no acknowledged save lost. This run: %s.", reached(r.Rush.Met()))
	w("")
	for _, m := range r.Machine {
		w("- %s", m)
	}
	w("")
	r.writeRush(w)
	return sb.String()
}

// msFrac is a latency in milliseconds with two decimals.
func msFrac(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}

// rushCodes lists the rush's answers that were not 2xx, and its transport errors.
func rushCodes(f rushFigures) string {
	var parts []string
	for _, l := range []struct {
		name string
		m    vegeta.Metrics
	}{{"saves", f.Saves}, {"standings", f.Standings}} {
		for _, code := range slices.Sorted(maps.Keys(l.m.StatusCodes)) {
			if !strings.HasPrefix(code, "2") {
				parts = append(parts, fmt.Sprintf("%s %s × %d", l.name, code, l.m.StatusCodes[code]))
			}
		}
		for _, e := range l.m.Errors {
			parts = append(parts, fmt.Sprintf("%s: %s", l.name, e))
		}
	}
	return strings.Join(parts, "; ")
}

// leagueRow is the summary's row of a league's table against nginx.
func (r report) leagueRow() string {
	return fmt.Sprintf("| GET /api/grupos/{id}/posiciones as a member, page 1 of a %d-member league (%d bytes) | %.0f req/s, p99 %.2f ms | nginx, same bytes as a file: %.0f req/s, p99 %.2f ms | %.2f | ≥ %.2f | %s |",
		r.LeagueMembers, r.League.BodyBytes, r.League.Subject.RPS, r.League.Subject.P99MS, r.League.Reference.RPS, r.League.Reference.P99MS,
		ratio(r.League.Subject.RPS, r.League.Reference.RPS), readGoal, reached(readGoalMet(r.League)))
}

// writeLeague is the section of a league's table against nginx.
func (r report) writeLeague(w func(format string, args ...any)) {
	r.httpSection(w, "GET /api/grupos/{id}/posiciones", r.League, r.Config.ScoringAdmin, r.LeagueURL, leagueFile, fmt.Sprintf(
		"Page 1 of the table of a league of %d players, asked by one of its members: every request carries the member's session cookie "+
			"(nginx is sent the same one). The first request checks, in one PostgreSQL query, that the session is open and that the player is a member, "+
			"with the league's version and the tournament's snapshot (store.GruposStore.Access); the replica remembers that access for up to 5 s, "+
			"until a notification from the statement that could end it ('Salir', a member removed, a new snapshot) makes it forget (grupos.AccessCache). "+
			"The page comes from the process's memory or Redis, kept under both (grupos.recentPages, standings.Cache); the members are looked up "+
			"in the snapshot only when neither holds the page.", r.LeagueMembers))
}
