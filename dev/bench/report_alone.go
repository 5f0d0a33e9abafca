package main

import (
	"fmt"
	"strings"
	"time"
)

// saveRow is the summary's row of POST a prediction against pgbench.
func (r report) saveRow() string {
	saveRatio := ratio(r.Save.Subject.RPS, r.Save.Reference.RPS)
	return fmt.Sprintf("| POST a prediction with a valid session | %.0f req/s, p99 %.2f ms | pgbench, the same guarded upsert, %d connections: %.0f tx/s, mean %.2f ms | %.2f | ≥ 0.6 | %s |",
		r.Save.Subject.RPS, r.Save.Subject.P99MS, r.Config.Connections, r.Save.Reference.RPS, r.Save.Reference.MeanMS, saveRatio, reached(saveRatio >= 0.6))
}

// writeSave is the section of POST a prediction against pgbench.
func (r report) writeSave(w func(format string, args ...any)) {
	c := r.Config
	w("## POST a prediction")
	w("")
	w("Prode: `POST %s/api/jugadores/<e-mail>/apuestas` as %d different players at random (their own", c.PredictionsBase, min(c.Sessions, c.Players))
	w("cookie and e-mail), on %d open matches, random scores; every answer must be 200/201 (errors: %d of %d", r.SaveMatches, r.Save.Subject.Errors, r.Save.Subject.Requests)
	w("requests). Each request checks the session's signature and the rate limit, validates the body and")
	w("runs the guarded upsert, which writes only while the match takes predictions by the database clock")
	w("and the session is open ('Salir' ends it everywhere); saves that arrive while others are being")
	w("written share one statement of that upsert (store.Batched), each row under the same guards.")
	w("")
	w("Reference: `pgbench -n -M prepared -c %d -j 1 -T %d` with the same INSERT … SELECT … WHERE apostable", c.Connections, int(c.RunTime.Seconds()))
	w("AND the session is open ON CONFLICT statement over the same players, sessions and matches")
	w("(dev/bench/http_benchmarks.go, upsertPgbench; the bench's session ids are md5(player id), so that")
	w("pgbench can name them).")
	w("")
	w("| | throughput | p50 | p95 | p99 | mean | CPU during the measured runs |")
	w("|---|---|---|---|---|---|---|")
	w("| Prode | %.0f req/s | %.2f ms | %.2f ms | %.2f ms | | %s |", r.Save.Subject.RPS, r.Save.Subject.P50MS, r.Save.Subject.P95MS, r.Save.Subject.P99MS, r.Save.SubjectCPU.String())
	w("| pgbench | %.0f tx/s | | | | %.2f ms | %s |", r.Save.Reference.RPS, r.Save.Reference.MeanMS, r.Save.ReferenceCPU.String())
	w("")
	r.Save.Profile.markdown(w, c.PredictionsAdmin)
}

// AloneMarkdown is the report of one benchmark rerun alone (dev/bench.sh save|league), after
// the full run's loads: its summary row and its section.
func (r report) AloneMarkdown(title, row string, section func(w func(format string, args ...any))) string {
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	w("# %s, measured alone", title)
	w("")
	w("Written by `%s` on %s, after the same loads as `make bench` (%d players, two", r.Config.Command, time.Now().UTC().Format("2006-01-02 15:04 MST"), r.Config.Players)
	w("tournaments). Medians of %d runs of %s each, subject and reference alternating.", r.Config.Repeats, r.Config.RunTime)
	w("")
	w("| benchmark | Prode | reference in the same run | ratio | goal | |")
	w("|---|---|---|---|---|---|")
	w("%s", row)
	w("")
	section(w)
	return sb.String()
}
