package main

import (
	"strings"
	"testing"
	"time"
)

// The standings show a right answer only at a new version whose every row has the bonus that
// answer gives: player j answered option j mod 4, players after LastPlayer did not answer.
func TestBonusShownOnlyAtANewVersionWithEveryRowsPoints(t *testing.T) {
	q := bonusQuestion{Puntos: 10, Opciones: []int64{71, 72, 73, 74}, LastPlayer: 100}
	page := func(version int64, rows ...standingsRow) standingsPage {
		return standingsPage{Version: version, Posiciones: rows}
	}
	right1 := page(8, standingsRow{ID: 5, Bonus: 10}, standingsRow{ID: 6}, standingsRow{ID: 9, Bonus: 10}, standingsRow{ID: 101})
	for name, c := range map[string]struct {
		page  standingsPage
		right int
		shown bool
	}{
		"new version, every row right":         {right1, 1, true},
		"same version as before":               {page(7, right1.Posiciones...), 1, false},
		"the other option's points":            {right1, 0, false},
		"one row still without its points":     {page(8, standingsRow{ID: 5, Bonus: 10}, standingsRow{ID: 9}), 1, false},
		"a newcomer who did not answer has 10": {page(8, standingsRow{ID: 105, Bonus: 10}), 1, false},
		"an empty page at a new version":       {page(8), 0, true},
	} {
		if got := q.shows(c.page, 7, c.right); got != c.shown {
			t.Errorf("%s: shows = %v, want %v", name, got, c.shown)
		}
	}
}

// The league's table and the bonus question have the main table's and a result's goals, and a
// row with nothing measured is not reached.
func TestLeagueAndBonusGoals(t *testing.T) {
	get := func(subject, reference float64) comparison {
		return comparison{Subject: httpFigures{RPS: subject}, Reference: httpFigures{RPS: reference}}
	}
	for name, c := range map[string]struct {
		c   comparison
		met bool
	}{
		"0.45 of nginx": {get(450, 1000), true},
		"0.44 of nginx": {get(440, 1000), false},
		"no reference":  {get(450, 0), false},
	} {
		if got := readGoalMet(c.c); got != c.met {
			t.Errorf("%s: readGoalMet = %v, want %v", name, got, c.met)
		}
	}
	s := time.Second
	for name, c := range map[string]struct {
		d   durationFigures
		met bool
	}{
		"1.5 times the bare SQL": {durationFigures{Subject: []time.Duration{3 * s, 3 * s}, Reference: []time.Duration{2 * s, 2 * s}}, true},
		"medians, not means":     {durationFigures{Subject: []time.Duration{s, s, 9 * s}, Reference: []time.Duration{s, s, s}}, true},
		"1.6 times":              {durationFigures{Subject: []time.Duration{16 * s}, Reference: []time.Duration{10 * s}}, false},
		"no run":                 {durationFigures{}, false},
	} {
		if got := scoringGoalMet(c.d); got != c.met {
			t.Errorf("%s: scoringGoalMet = %v, want %v", name, got, c.met)
		}
	}
}

// The report's summary has the two rows, with their goals and verdicts.
func TestSummaryHasTheLeagueAndBonusRows(t *testing.T) {
	r := report{Memory: newMemorySampler(t.TempDir()), LeagueMembers: 5000, BonusAnswers: 100_000,
		League: comparison{Subject: httpFigures{RPS: 300}, Reference: httpFigures{RPS: 1000}, BodyBytes: 12_000},
		Bonus:  durationFigures{Subject: []time.Duration{time.Second}, Reference: []time.Duration{time.Second}}}
	md := r.Markdown()
	for _, want := range []string{
		"| GET /api/grupos/{id}/posiciones as a member, page 1 of a 5000-member league (12000 bytes) | 300 req/s",
		"| 0.30 | ≥ 0.45 | **missed** |",
		"| a bonus question's right answer entered → its points in the standings in the API (100000 answers) | 1000 ms",
		"| 1.00x | ≤ 1.5x | reached |",
		"## GET /api/grupos/{id}/posiciones",
		"## A bonus question's right answer, to the standings in the API",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
