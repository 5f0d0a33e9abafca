package store_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// Every branch of the specification's points table, through scoring.puntos_de as the
// service's own role calls it. The same cases pin the tests' independent reference.
func TestPuntosDe(t *testing.T) {
	e := scoringtest.New(t)
	pool := e.DB.Pool(t, "scoring")
	cases := []struct {
		name           string
		pl, pv, rl, rv int
		want           int
	}{
		{"0-0 predicted, 0-0 played: exact", 0, 0, 0, 0, 10},
		{"0-0 predicted, 1-1 played: draw, no team's goals", 0, 0, 1, 1, 5},
		{"1-1 predicted, 0-0 played: draw, no team's goals", 1, 1, 0, 0, 5},
		{"0-0 predicted, 0-1 played: home goals only", 0, 0, 0, 1, 2},
		{"0-0 predicted, 2-0 played: away goals only", 0, 0, 2, 0, 2},
		{"1-0 predicted, 0-0 played: away goals only", 1, 0, 0, 0, 2},
		{"exact home win", 2, 1, 2, 1, 10},
		{"exact away win", 0, 3, 0, 3, 10},
		{"exact high draw", 3, 3, 3, 3, 10},
		{"home win and home goals", 2, 0, 2, 1, 7},
		{"home win and away goals", 3, 1, 2, 1, 7},
		{"away win and away goals", 0, 2, 1, 2, 7},
		{"away win and home goals", 1, 3, 1, 2, 7},
		{"home win only", 1, 0, 3, 1, 5},
		{"away win only", 0, 1, 1, 3, 5},
		{"draw only", 1, 1, 2, 2, 5},
		{"consolation: home goals, wrong outcome", 2, 1, 2, 3, 2},
		{"consolation: away goals, draw played", 2, 1, 1, 1, 2},
		{"consolation: home goals, draw predicted", 1, 1, 1, 0, 2},
		{"nothing: wrong winner", 2, 1, 0, 3, 0},
		{"nothing: draw predicted, win played", 1, 1, 0, 2, 0},
		{"nothing: 0-0 predicted, 1-2 played", 0, 0, 1, 2, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got int
			err := pool.QueryRow(context.Background(), `SELECT scoring.puntos_de($1, $2, $3, $4)`,
				c.pl, c.pv, c.rl, c.rv).Scan(&got)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("scoring.puntos_de(%d, %d, %d, %d) = %d, want %d", c.pl, c.pv, c.rl, c.rv, got, c.want)
			}
			if ref, _, _ := scoringtest.Points(c.pl, c.pv, c.rl, c.rv); ref != c.want {
				t.Errorf("reference Points(%d, %d, %d, %d) = %d, want %d", c.pl, c.pv, c.rl, c.rv, ref, c.want)
			}
		})
	}
}

// Knock-out matches count the 90-minute score under "noventa" and the extra-time score under
// "alargue"; penalties never count, and group matches always count the 90-minute score.
func TestScoreMatchKnockoutCriteria(t *testing.T) {
	e := scoringtest.New(t)
	st := store.NewPointsStore(e.DB.Pool(t, "scoring"), time.UTC)
	ctx := context.Background()
	kickoff := time.Date(2022, 12, 18, 15, 0, 0, 0, time.UTC)
	final := e.Match("Final", "ARG", "FRA", kickoff)
	octavos := e.Match("Octavos de final", "CRO", "BRA", kickoff.Add(-time.Hour))
	cuartos := e.Match("Cuartos de final", "ENG", "FRA", kickoff.Add(-2*time.Hour))
	grupo := e.Match("Grupo C", "ARG", "MAR", kickoff.Add(-3*time.Hour))
	p1, p2, p3 := e.Player("uno"), e.Player("dos"), e.Player("tres")

	// Final: 1-1 after 90 minutes, 2-1 after extra time.
	e.SetResult(final, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1, GolesLocalAlargue: scoringtest.Int(2), GolesVisitanteAlargue: scoringtest.Int(1)})
	e.Predict(p1, final, 2, 1)
	e.Predict(p2, final, 1, 1)
	e.Predict(p3, final, 1, 0)
	// Octavos: 1-1, 1-1 after extra time, 4-2 on penalties.
	e.SetResult(octavos, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1, GolesLocalAlargue: scoringtest.Int(1), GolesVisitanteAlargue: scoringtest.Int(1),
		PenalesLocal: scoringtest.Int(4), PenalesVisitante: scoringtest.Int(2)})
	e.Predict(p1, octavos, 1, 1)
	e.Predict(p2, octavos, 2, 1)
	// Cuartos: 2-0, no extra time.
	e.SetResult(cuartos, scoringtest.Result{GolesLocal: 2, GolesVisitante: 0})
	e.Predict(p1, cuartos, 2, 0)
	// A group match never counts extra time, even if a row carried it.
	e.SetResult(grupo, scoringtest.Result{GolesLocal: 0, GolesVisitante: 0, GolesLocalAlargue: scoringtest.Int(1), GolesVisitanteAlargue: scoringtest.Int(0)})
	e.Predict(p1, grupo, 0, 0)
	e.Predict(p2, grupo, 1, 0)

	type K = scoringtest.Key
	type R = scoringtest.Row
	k := func(partido, jugador int64) K { return K{Partido: partido, Jugador: jugador} }
	r := func(puntos, exactos, aciertos int) R { return R{Puntos: puntos, Exactos: exactos, Aciertos: aciertos} }
	noventa := map[K]R{
		k(final, p1.ID): r(2, 0, 0), k(final, p2.ID): r(10, 1, 1), k(final, p3.ID): r(2, 0, 0),
		k(octavos, p1.ID): r(10, 1, 1), k(octavos, p2.ID): r(2, 0, 0),
		k(cuartos, p1.ID): r(10, 1, 1),
		k(grupo, p1.ID):   r(10, 1, 1), k(grupo, p2.ID): r(2, 0, 0),
	}
	alargue := map[K]R{
		k(final, p1.ID): r(10, 1, 1), k(final, p2.ID): r(2, 0, 0), k(final, p3.ID): r(5, 0, 1),
		k(octavos, p1.ID): r(10, 1, 1), k(octavos, p2.ID): r(2, 0, 0),
		k(cuartos, p1.ID): r(10, 1, 1),
		k(grupo, p1.ID):   r(10, 1, 1), k(grupo, p2.ID): r(2, 0, 0),
	}
	for _, step := range []struct {
		criterio string
		want     map[K]R
	}{{"noventa", noventa}, {"alargue", alargue}, {"noventa", noventa}} {
		for _, partido := range []int64{final, octavos, cuartos, grupo} {
			if _, err := st.ScoreMatches(ctx, []int64{partido}, step.criterio, nil); err != nil {
				t.Fatal(err)
			}
		}
		if got := e.StoredPoints(); !maps.Equal(got, step.want) {
			t.Errorf("%s: points\n got %v\nwant %v", step.criterio, got, step.want)
		}
		if got, want := e.StoredTotals(), scoringtest.Totals(step.want); !maps.Equal(got, want) {
			t.Errorf("%s: totals\n got %v\nwant %v", step.criterio, got, want)
		}
	}
}

// A match whose result was deleted has no points, and its points leave the totals.
func TestScoreMatchWithoutResultRemovesPoints(t *testing.T) {
	e := scoringtest.New(t)
	st := store.NewPointsStore(e.DB.Pool(t, "scoring"), time.UTC)
	ctx := context.Background()
	a := e.Match("Grupo A", "ARG", "MAR", time.Now().Add(-3*time.Hour))
	b := e.Match("Grupo A", "FRA", "CRO", time.Now().Add(-2*time.Hour))
	p := e.Player("uno")
	e.Predict(p, a, 1, 0)
	e.Predict(p, b, 2, 2)
	ea := e.SetResult(a, scoringtest.Result{GolesLocal: 1, GolesVisitante: 0})
	eb := e.SetResult(b, scoringtest.Result{GolesLocal: 1, GolesVisitante: 1})
	torneos, err := st.ScoreMatches(ctx, []int64{a}, "noventa", []int64{ea})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.ScoreMatches(ctx, []int64{b}, "noventa", []int64{eb}); err != nil {
		t.Fatal(err)
	}
	var torneo int64
	if err := e.Admin.QueryRow(ctx, `SELECT torneo_id FROM fixtures.partidos WHERE id = $1`, a).Scan(&torneo); err != nil {
		t.Fatal(err)
	}
	if len(torneos) != 1 || torneos[0] != torneo {
		t.Errorf("scoring match %d named the tournaments %v, want [%d]", a, torneos, torneo)
	}
	if got, want := e.StoredTotals()[p.ID], (scoringtest.Row{Puntos: 15, Exactos: 1, Aciertos: 2}); got != want {
		t.Fatalf("totals %v, want %v", got, want)
	}
	deleted := e.DeleteResult(a)
	if _, err := st.ScoreMatches(ctx, []int64{a}, "noventa", []int64{deleted}); err != nil {
		t.Fatal(err)
	}
	if got, want := e.StoredTotals()[p.ID], (scoringtest.Row{Puntos: 5, Exactos: 0, Aciertos: 1}); got != want {
		t.Errorf("totals after deleting a result %v, want %v", got, want)
	}
	if got := e.StoredPoints(); len(got) != 1 {
		t.Errorf("points rows after deleting a result: %v, want only match %d's", got, b)
	}
	pending, err := st.Pending(ctx, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 0 {
		t.Errorf("events still pending after scoring them: %v", pending)
	}
}
