package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// The report of make bench-scale (docs/benchmarks-scale.md): the machine, a growth table with a row per
// size, then issue 20's goals judged at the largest size, each with why from the run's figures.

// issue 20's goals.
const (
	scaleTargetPlayers = 2_000_000
	scaleEveryPageGoal = 5 * time.Second // a result to every page at scaleTargetPlayers
	scaleSpeedupGoal   = 10.0            // times faster than the bare SQL of today's statements
	scaleScoringMiB    = 512.0           // the scoring service's resident memory
	// linearSlack: the noise a shared machine allows before a cost per 1,000 players added
	// counts as growing faster than linearly.
	linearSlack = 1.2
)

// scaleReport is everything one make bench-scale run measured.
type scaleReport struct {
	Machine []string
	Config  config
	Matches []int64
	Sizes   []scaleSize
	Memory  *memorySampler
}

// scaleChanges are the three changes of a result, in the report's order.
var scaleChanges = []struct {
	name string
	of   func(z scaleSize) changeFigures
}{
	{"a result entered", func(z scaleSize) changeFigures { return z.Entry }},
	{"a result corrected", func(z scaleSize) changeFigures { return z.Correction }},
	{"a result deleted", func(z scaleSize) changeFigures { return z.Delete }},
}

// missedBy says by how many times a figure misses its goal (factor > 1), or that it reached it.
func missedBy(factor float64) string {
	if factor <= 1 {
		return "reached"
	}
	return fmt.Sprintf("**missed** by %.1f×", factor)
}

// plural is n things, in words that agree with n.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return count(n) + " " + thing + "s"
}

// runs is n runs.
func runs(n int) string { return plural(n, "run") }

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// byteSize is a size on disk in the largest unit that keeps it above 1.
func byteSize(bytes int64) string {
	switch {
	case bytes >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(bytes)/(1<<30))
	case bytes >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(bytes)/(1<<20))
	default:
		return fmt.Sprintf("%.0f KiB", float64(bytes)/(1<<10))
	}
}

// count writes a number of players or rows with thousands separators, as the issue does.
func count[N int | int64](n N) string {
	s := strconv.FormatInt(int64(n), 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// peakMiB is the largest resident memory of svc over the phases of a size.
func (r scaleReport) peakMiB(players int, svc string, phases ...string) float64 {
	var peak float64
	for _, p := range phases {
		peak = max(peak, r.Memory.Peak(scalePhase(players, p), svc))
	}
	return peak
}

// perThousand is a median time per 1,000 players, in ms.
func perThousand(d time.Duration, players int) float64 {
	return float64(d) / float64(time.Millisecond) / (float64(players) / 1000)
}

// growth is how a cost grew between consecutive sizes: per size its ms per 1,000 players, and
// between sizes the ms per 1,000 players added (the marginal cost).
type growth struct {
	PerThousand []float64
	Marginal    []float64 // len(PerThousand)-1
}

func growthOf(sizes []scaleSize, cost func(scaleSize) time.Duration) growth {
	var g growth
	for i, z := range sizes {
		g.PerThousand = append(g.PerThousand, perThousand(cost(z), z.Players))
		if i > 0 {
			prev := sizes[i-1]
			g.Marginal = append(g.Marginal, perThousand(cost(z)-cost(prev), z.Players-prev.Players))
		}
	}
	return g
}

// Worst is the largest ratio of a marginal cost to the average cost per 1,000 players at the
// smaller size. A linear cost (fixed part + a part per player) keeps it at or below 1: every
// 1,000 players added cost at most what 1,000 cost on average before; n log n or worse exceeds it.
func (g growth) Worst() float64 {
	var worst float64
	for i, m := range g.Marginal {
		worst = max(worst, ratio(m, g.PerThousand[i]))
	}
	return worst
}

// Markdown is docs/benchmarks-scale.md.
func (r scaleReport) Markdown() string {
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	c := r.Config
	w("# make bench-scale (issue 20)")
	w("")
	w("Written by `%s` (dev/bench.sh, dev/bench/scale_run.go) on %s. One database grown to", c.Command, time.Now().UTC().Format("2006-01-02 15:04 MST"))
	w("each size in turn (the players of a size loaded with COPY on top of the previous size's), every")
	w("player predicting the same %d matches of the current tournament (ids %v; goals 0-4 from a", len(r.Matches), r.Matches)
	w("fixed seed). Each Prode figure was measured beside its reference in the same run on the same")
	w("machine: %s of each change of a result, %s of %s for each read under load (medians).", runs(max(1, c.ScoringRepeats)), runs(c.Repeats), c.RunTime)
	w("The goals are issue 20's; figures that miss them are reported, not failed.")
	w("")
	writeMachine(w, r.Machine)
	w("")
	r.writeGrowth(w)
	if len(r.Sizes) > 0 {
		r.writeGoals(w)
		r.writeDisk(w)
	}
	r.writeMethod(w)
	return sb.String()
}

// writeGroupsHead writes the head of a growth table: the players, then per measure a group of
// three columns, Prode | the reference | ratio.
func writeGroupsHead(w func(format string, args ...any), reference string, measures ...string) {
	head, rule := "| players |", "|---|"
	for _, m := range measures {
		head += fmt.Sprintf(" %s: Prode | %s | ratio |", m, reference)
		rule += "---|---|---|"
	}
	w("%s", head)
	w("%s", rule)
}

func (r scaleReport) writeGrowth(w func(format string, args ...any)) {
	w("## Growth")
	w("")
	w("Times are medians, Prode's end to end; a time's ratio is Prode's over the bare SQL's (below 1:")
	w("faster), a read's is Prode's throughput over nginx's sending the same bytes.")
	w("")
	writeGroupsHead(w, "bare SQL", "result entered → every page", "result corrected → every page", "result deleted → every page", "full rescore")
	for _, z := range r.Sizes {
		row := fmt.Sprintf("| %s |", count(z.Players))
		for _, d := range []durationFigures{z.Entry.durationFigures, z.Correction.durationFigures, z.Delete.durationFigures, z.Rescore} {
			row += fmt.Sprintf(" %s | %s | %.2f× |", seconds(medianDuration(d.Subject)), seconds(medianDuration(d.Reference)), d.Ratio())
		}
		w("%s", row)
	}
	w("")
	writeGroupsHead(w, "nginx", "GET page 1", "GET a deep page", "GET the around-me board", "GET the matchday's board")
	for _, z := range r.Sizes {
		row := fmt.Sprintf("| %s |", count(z.Players))
		for _, cmp := range []comparison{z.Page1, z.Deep, z.Board, z.DayBoard} {
			row += fmt.Sprintf(" %.0f req/s | %.0f req/s | %.2f |", cmp.Subject.RPS, cmp.Reference.RPS, ratio(cmp.Subject.RPS, cmp.Reference.RPS))
		}
		w("%s", row)
	}
	w("")
	var failed, asked, nginxFailed, nginxAsked int64
	for _, z := range r.Sizes {
		for _, cmp := range []comparison{z.Page1, z.Deep, z.Board, z.DayBoard} {
			failed, asked = failed+cmp.Subject.Errors, asked+cmp.Subject.Requests
			nginxFailed, nginxAsked = nginxFailed+cmp.Reference.Errors, nginxAsked+cmp.Reference.Requests
		}
	}
	w("Errors: %d of %s requests through the service, %d of %s for nginx.", failed, count(asked), nginxFailed, count(nginxAsked))
	w("")
	w("| players | loaded: players, predictions | the predictions' match index rebuilt | open streams: a result to the last one (median) | scoring's peak RSS: scoring steps, all | peak RSS: players, fixtures, predictions | database |")
	w("|---|---|---|---|---|---|---|")
	for _, z := range r.Sizes {
		live := "—"
		if z.Live.Streams > 0 {
			live = fmt.Sprintf("%s: %s (p95 at a stream %s)", count(z.Live.Streams), seconds(medianDuration(z.Live.Last)), seconds(percentile(z.Live.Latencies, .95)))
		}
		w("| %s | +%s in %s, +%s in %s | %s: %s → %s | %s | %.0f MiB, %.0f MiB | %.0f, %.0f, %.0f MiB | %s |", count(z.Players),
			count(z.Added), seconds(z.LoadPlayers), count(z.Added*len(r.Matches)), seconds(z.LoadPredictions),
			seconds(z.Reindex.Took), byteSize(z.Reindex.Before), byteSize(z.Reindex.After), live,
			r.peakMiB(z.Players, "scoring", "scoring"), r.peakMiB(z.Players, "scoring", scalePhases...),
			r.peakMiB(z.Players, "players", scalePhases...), r.peakMiB(z.Players, "fixtures", scalePhases...),
			r.peakMiB(z.Players, "predictions", scalePhases...), byteSize(z.Disk.Database))
	}
	w("")
	w("Where a change's time went: scoring's transaction of the points rows and totals")
	w("(prode_scoring_duration_seconds), written once the table carried to the new result is published, and")
	w("how long after every page showed the change they were still being written, beside the bare SQL's")
	w("points and totals and its ranking of the table.")
	w("")
	w("| players | change | to page 1 | to every page | the points rows' transaction | rows written after every page | bare SQL: points | bare SQL: ranking |")
	w("|---|---|---|---|---|---|---|---|")
	for _, z := range r.Sizes {
		for _, ch := range scaleChanges {
			f := ch.of(z)
			w("| %s | %s | %s | %s | %s | %s | %s | %s |", count(z.Players), ch.name, seconds(medianDuration(f.FirstPage)), seconds(medianDuration(f.Subject)),
				seconds(f.Tx.Mean()), seconds(f.Behind()), seconds(medianDuration(f.BarePoints)), seconds(medianDuration(f.BareRanking)))
		}
	}
	w("")
}

func (r scaleReport) writeGoals(w func(format string, args ...any)) {
	last := r.Sizes[len(r.Sizes)-1]
	w("## Issue 20's goals at %s players", count(last.Players))
	w("")
	if last.Players < scaleTargetPlayers {
		w("The largest size measured is %s players, not %s: the time goals are judged there, and the", count(last.Players), count(scaleTargetPlayers))
		w("last line below extrapolates to %s at the last marginal cost.", count(scaleTargetPlayers))
		w("")
	}
	w("| goal | measured | |")
	w("|---|---|---|")
	for _, ch := range scaleChanges {
		t := medianDuration(ch.of(last).Subject)
		w("| %s → every page ≤ %s | %s | %s |", ch.name, seconds(scaleEveryPageGoal), seconds(t), missedBy(float64(t)/float64(scaleEveryPageGoal)))
	}
	for _, ch := range scaleChanges {
		f := ch.of(last)
		speedup := ratio(float64(medianDuration(f.Reference)), float64(medianDuration(f.Subject)))
		w("| %s: ≥ %.0f× faster than the bare SQL of today's statements | %.2f× as fast (bare SQL %s, Prode %s) | %s |", ch.name, scaleSpeedupGoal, speedup,
			seconds(medianDuration(f.Reference)), seconds(medianDuration(f.Subject)), missedBy(ratio(scaleSpeedupGoal, speedup)))
	}
	scoringPeak := r.peakMiB(last.Players, "scoring", "scoring")
	w("| scoring's resident memory in the scoring steps ≤ %.0f MiB | %.0f MiB | %s |", scaleScoringMiB, scoringPeak, missedBy(scoringPeak/scaleScoringMiB))
	costs := []struct {
		name string
		cost func(scaleSize) time.Duration
	}{
		{"a result entered → every page", func(z scaleSize) time.Duration { return medianDuration(z.Entry.Subject) }},
		{"a full rescore", func(z scaleSize) time.Duration { return medianDuration(z.Rescore.Subject) }},
	}
	for _, c := range costs {
		g := growthOf(r.Sizes, c.cost)
		if len(g.Marginal) == 0 {
			w("| %s: cost growing no worse than linearly | one size measured | not judged |", c.name)
			continue
		}
		w("| %s: cost growing no worse than linearly | %s | %s |", c.name, g.String(r.Sizes), missedBy(g.Worst()/linearSlack))
	}
	w("")
	r.writeWhy(w, last)
}

// String lists a growth's ms per 1,000 players at each size and added between sizes.
func (g growth) String(sizes []scaleSize) string {
	var parts []string
	for i, p := range g.PerThousand {
		part := fmt.Sprintf("%.1f ms per 1,000 at %s", p, count(sizes[i].Players))
		if i > 0 {
			part = fmt.Sprintf("%.1f per 1,000 added, ", g.Marginal[i-1]) + part
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// writeWhy says where the time went at the largest size, from the run's own figures.
func (r scaleReport) writeWhy(w func(format string, args ...any), last scaleSize) {
	w("Why, from this run's figures:")
	w("")
	for _, ch := range scaleChanges {
		f := ch.of(last)
		w("- **%s** reached page 1 in %s and every page in %s: the table of %s rows carried and published;", ch.name,
			seconds(medianDuration(f.FirstPage)), seconds(medianDuration(f.Subject)), count(last.Players))
		w("  then the points rows written in %s (mean, %s), %s of it after every page. The bare", seconds(f.Tx.Mean()),
			plural(int(f.Tx.Count), "transaction"), seconds(f.Behind()))
		w("  SQL took %s for the points and totals and %s to rank the table.", seconds(medianDuration(f.BarePoints)), seconds(medianDuration(f.BareRanking)))
	}
	w("- **The full rescore** took %s (bare SQL %s) over %s predictions, in %s of %s on", seconds(medianDuration(last.Rescore.Subject)),
		seconds(medianDuration(last.Rescore.Reference)), count(last.Predictions), plural(int(last.RescoreTx.Count), "scoring transaction"), seconds(last.RescoreTx.Mean()))
	w("  average, after the process restart that asks for it.")
	if len(r.Sizes) > 1 && last.Players < scaleTargetPlayers {
		g := growthOf(r.Sizes, func(z scaleSize) time.Duration { return medianDuration(z.Entry.Subject) })
		marginal := g.Marginal[len(g.Marginal)-1]
		at := medianDuration(last.Entry.Subject) + time.Duration(marginal*float64(scaleTargetPlayers-last.Players)/1000*float64(time.Millisecond))
		w("- **At %s players**, at the last marginal cost (%.1f ms per 1,000 players added), a result entered", count(scaleTargetPlayers), marginal)
		w("  would reach every page in about %s against the goal of %s: %s.", seconds(at), seconds(scaleEveryPageGoal), missedBy(float64(at)/float64(scaleEveryPageGoal)))
	}
	w("- **Scoring's memory**: %.0f MiB at most in the scoring steps, %.0f MiB over the whole size (the reads and", r.peakMiB(last.Players, "scoring", "scoring"),
		r.peakMiB(last.Players, "scoring", scalePhases...))
	w("  the open streams included).")
	w("")
}

func (r scaleReport) writeDisk(w func(format string, args ...any)) {
	last := r.Sizes[len(r.Sizes)-1]
	w("## Disk at %s players", count(last.Players))
	w("")
	w("The database: %s (pg_database_size). Its largest tables, indexes and TOAST included:", byteSize(last.Disk.Database))
	w("")
	w("| table | with indexes | the table alone |")
	w("|---|---|---|")
	for _, t := range last.Disk.Tables {
		w("| %s | %s | %s |", t.Name, byteSize(t.Total), byteSize(t.Table))
	}
	w("")
}

func (r scaleReport) writeMethod(w func(format string, args ...any)) {
	c := r.Config
	w("## How each figure was taken")
	w("")
	w("- **The predictions' match index rebuilt**: after each size's load, `migrate reindex force`, what the")
	w("  chart's CronJob runs once a match's betting closes (REINDEX CONCURRENTLY; forced, since the bench's")
	w("  matches stay open): random saves scatter a match's index entries, and its result comes after the")
	w("  cut-off, once they lie packed (docs/operations.md). Its time and the index's size before and after.")
	w("- **A change of a result → every page**: match %v's result deleted (`DELETE %s/api/partidos/<id>/resultado`", r.Matches[:1], c.FixturesBase)
	w("  with forzar), entered again (1-0) and corrected (0-1), as the organiser. Each timed from the request")
	w("  until page 1 of GET /api/posiciones moved to a new version, then the last page and a middle page")
	w("  answered at that version and GET /api/posiciones/yo of a player whose points the change moves (an")
	w("  exact hit of the new score, or of the deleted one) showed their points by the predictions and")
	w("  results. Reference: the same change and bareScoreMatch (dev/bench/scoring_benchmarks.go) on the base")
	w("  tables, in one transaction rolled back, just before the request, from the same state. After each")
	w("  reference (and the full rescore's), VACUUM and CHECKPOINT clear its rolled-back rows and dirty pages,")
	w("  so that the change timed next does not pay for the reference's writes (clearReference).")
	w("- **Full rescore**: every match with a result, then the scoring service restarted with the other")
	w("  knock-out setting, which rescores every match; timed from the process start to the setting")
	w("  recorded. Reference: bareRescore, rolled back. It also scores the players loaded at this size.")
	w("- **Reads under load**: wrk, one thread, %d connections, against page 1, a middle page of the table,", c.Connections)
	w("  the around-me board (GET /api/posiciones/tablero with a player's session cookie) and the same")
	w("  player's board of the newest matchday (?fecha=); the reference is an nginx of its own serving the")
	w("  bytes the service answered.")
	w("- **Open streams**: GET /api/eventos held open (the file descriptor limit permitting), then %s", plural(c.StreamResults, "result"))
	w("  of the same match entered, each timed from its PUT to its event at every stream.")
	w("- **Memory**: every service's VmRSS sampled every 200 ms; \"scoring steps\" are the rescore and the")
	w("  three changes of a result. %s", memoryLimit(os.Getenv("PRODE_MEMORY_LIMIT")))
	w("")
}

// memoryLimit says what container memory limit the Go services were told (dev/bench.sh sets
// PRODE_MEMORY_LIMIT, in bytes, as the chart sets MEMORY_LIMIT from each container's limit).
func memoryLimit(limit string) string {
	bytes, err := strconv.ParseInt(limit, 10, 64)
	if err != nil || bytes <= 0 {
		return "The services ran without a memory limit."
	}
	return fmt.Sprintf("The services ran as the chart runs them in a container of %d MiB (MEMORY_LIMIT): "+
		"the Go runtime's soft limit was 85 %% of it.", bytes>>20)
}
