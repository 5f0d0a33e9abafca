package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"slices"
	"sync/atomic"
	"time"
)

// What the rush measures of the live standings (issue 13): event streams held open through it,
// each timed from the result's PUT to the event it hears, and players who sign up during it,
// each timed from their registration to their row on the table's last page, with page 1
// counting them in the same version.
type rushLive struct {
	Streams int             // open through the rush
	ToEvent []time.Duration // the result's PUT to the event, one per stream that heard it
	SignUps []time.Duration // registration committed to the newcomer on every page
	Missing int             // newcomers not on the pages 10 s after signing up
}

// signUpGoal is the issue's: a new player is on every standings page within 2 s.
const signUpGoal = 2 * time.Second

// Met says whether every stream heard the result and every newcomer was listed within the goal.
func (l rushLive) Met() bool {
	return len(l.ToEvent) == l.Streams && l.Missing == 0 && len(l.SignUps) > 0 && slices.Max(l.SignUps) < signUpGoal
}

// listeners are event streams open on scoring; each records when it first hears an event
// after the result's PUT started (heardAt, unix ns).
type listeners struct {
	conns    []net.Conn
	resultAt atomic.Int64 // unix ns of the result's PUT; 0 before it
	heardAt  []atomic.Int64
}

func (b *bench) listen(n int) (*listeners, error) {
	u, err := url.Parse(b.cfg.ScoringBase)
	if err != nil {
		return nil, err
	}
	l := &listeners{heardAt: make([]atomic.Int64, n)}
	for i := range n {
		conn, r, err := openEventStream(u.Host)
		if err != nil {
			l.close()
			return nil, fmt.Errorf("opening event stream %d of %d: %w", i+1, n, err)
		}
		l.conns = append(l.conns, conn)
		go func() {
			for {
				line, err := r.ReadSlice('\n')
				if err != nil {
					return
				}
				// Events held before the result (sent as the stream opens) and heartbeats do not count.
				if l.resultAt.Load() != 0 && bytes.HasPrefix(line, []byte("id: ")) {
					l.heardAt[i].CompareAndSwap(0, time.Now().UnixNano())
				}
			}
		}()
	}
	return l, nil
}

// heard is the time from the result's PUT to its event at each stream that heard it.
func (l *listeners) heard() []time.Duration {
	var ds []time.Duration
	for i := range l.heardAt {
		if at := l.heardAt[i].Load(); at != 0 {
			ds = append(ds, time.Duration(at-l.resultAt.Load()))
		}
	}
	return ds
}

func (l *listeners) close() {
	for _, c := range l.conns {
		c.Close()
	}
}

// standingsPage is what the sign-ups' check, the bonus question's (bonus.go) and make
// bench-scale's (scale_change.go) read of GET /api/posiciones.
type standingsPage struct {
	Version    int64          `json:"version"`
	Total      int            `json:"total"`
	PorPagina  int            `json:"por_pagina"`
	Posiciones []standingsRow `json:"posiciones"`
}

type standingsRow struct {
	ID    int64 `json:"id"`
	Bonus int64 `json:"bonus"`
}

// signUps registers a newcomer every interval until d is over, as the players service does
// (one row in players.jugadores), and times each until the table's last page lists them and
// page 1, at the same version, counts them.
func (b *bench) signUps(ctx context.Context, every, d time.Duration) (times []time.Duration, missing int, err error) {
	end := time.Now().Add(d)
	for i := 0; time.Now().Add(every).Before(end); i++ {
		time.Sleep(every)
		var id int64
		stamp := time.Now().UnixNano()
		if err := b.db.QueryRow(ctx, `
			INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ($1, $2, $3) RETURNING id`,
			fmt.Sprintf("bench-rush-%d", stamp), fmt.Sprintf("recien%d@rush.bench", stamp), fmt.Sprintf("Recién llegado %d", i+1),
		).Scan(&id); err != nil {
			return nil, 0, err
		}
		registered := time.Now()
		if listed(b.cfg.ScoringBase, id, registered.Add(10*time.Second)) {
			times = append(times, time.Since(registered))
		} else {
			missing++
		}
	}
	return times, missing, nil
}

// listed polls the standings until the player is on the last page and page 1 counts them at
// the same version, or until the deadline.
func listed(base string, id int64, deadline time.Time) bool {
	read := func(pagina int) (standingsPage, error) {
		var p standingsPage
		body, err := get(fmt.Sprintf("%s/api/posiciones?pagina=%d&por_pagina=100", base, pagina))
		if err == nil {
			err = json.Unmarshal(body, &p)
		}
		return p, err
	}
	for time.Now().Before(deadline) {
		first, err1 := read(1)
		last, err2 := read(first.pages())
		if err1 == nil && err2 == nil && last.Version == first.Version && last.Total == first.Total &&
			slices.ContainsFunc(last.Posiciones, func(r standingsRow) bool { return r.ID == id }) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// markdown is the rush section's part on the live standings.
func (l rushLive) markdown(w func(format string, args ...any)) {
	w("Live standings during the rush (issue 13): %d event streams (GET /api/eventos) were open on", l.Streams)
	w("scoring throughout, and a player signed up every 2 s (one row in players.jugadores, as the players")
	w("service writes it); each newcomer was timed until the table's last page listed them and page 1, at")
	w("the same version, counted them. Goal: every newcomer within 2 s, every stream hears the result.")
	w("")
	w("| | count | median | p95 | max |")
	w("|---|---|---|---|---|")
	w("| sign-up to on every page | %d (%d not listed within 10 s) | %s | %s | %s |", len(l.SignUps), l.Missing,
		msFrac(medianDuration(l.SignUps)), msFrac(percentile(l.SignUps, 0.95)), msFrac(maxOf(l.SignUps)))
	w("| the result's PUT to its event at a stream | %d of %d streams | %s | %s | %s |", len(l.ToEvent), l.Streams,
		msFrac(medianDuration(l.ToEvent)), msFrac(percentile(l.ToEvent, 0.95)), msFrac(maxOf(l.ToEvent)))
	w("")
	w("The event follows the scoring of the match's predictions and the new table (the section on a")
	w("result entered, above, times those alone): it is sent once the standings it announces can be read.")
	w("")
}

func maxOf(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return slices.Max(ds)
}
