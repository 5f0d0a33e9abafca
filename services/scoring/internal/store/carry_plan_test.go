package store

import (
	"testing"
	"time"
)

// A match whose rows are still being written for the result the newest snapshot carried (in
// flight) is carried from what that snapshot counts, not compared with its rows, which are the
// previous result's; and only from the predictions that snapshot counted: there are no rows to
// subtract instead.
func TestAMatchInFlightIsCarriedFromWhatTheSnapshotCounts(t *testing.T) {
	day := time.Date(2026, 6, 20, 0, 0, 0, 0, time.UTC)
	huella := func(h int64) *int64 { return &h }
	// The snapshot counts 1-1 for match 2 (carried), its rows still the previous 2-0.
	contados := Contados{Marcadores: map[int64]Marcador{1: {2, 1}, 2: {1, 1}}, Huellas: map[int64]int64{1: 10, 2: 20},
		Zona: "UTC"}
	states := []partidoState{
		{ID: 1, Fecha: day, Finalizado: true, Conocido: true, Marcador: &Marcador{2, 1}, Huella: huella(10)},
		{ID: 2, Fecha: day, Finalizado: true, Conocido: true, Marcador: &Marcador{2, 0}, Huella: huella(20)},
	}
	now := map[int64]Marcador{2: {0, 2}}

	if _, ok := planCarry(contados, "UTC", states, []int64{2}, nil, now, &day); ok {
		t.Fatal("carried from rows that are not the ones the snapshot counted, with nothing in flight")
	}
	plan, ok := planCarry(contados, "UTC", states, []int64{2}, []int64{2}, now, &day)
	if !ok {
		t.Fatal("a correction of the match in flight was not carried")
	}
	if plan.antes[2] != (Marcador{1, 1}) || plan.contados.Marcadores[2] != (Marcador{0, 2}) {
		t.Fatalf("carried from %v to %v, want from the snapshot's 1-1 to 0-2", plan.antes[2], plan.contados.Marcadores[2])
	}
	if _, ok := planCarry(contados, "UTC", states, []int64{1}, []int64{2}, map[int64]Marcador{1: {0, 0}}, &day); !ok {
		t.Fatal("another match was not carried while match 2's rows are in flight")
	}

	for _, c := range []struct {
		what    string
		counted map[int64]int64 // the snapshot's fingerprints
		read    int64           // the predictions' fingerprint as the carry read them
		ok      bool
	}{
		{"the predictions the snapshot counted", map[int64]int64{1: 10, 2: 20}, 20, true},
		{"predictions changed since the snapshot", map[int64]int64{1: 10, 2: 20}, 21, false},
		{"the snapshot's fingerprint not known", map[int64]int64{1: 10}, 20, false},
	} {
		contados.Huellas = c.counted
		plan, ok := planCarry(contados, "UTC", states, []int64{2}, []int64{2}, now, &day)
		if !ok {
			t.Fatalf("%s: not planned", c.what)
		}
		rowsOf, ok := plan.check(states, []int64{2}, map[int64]int64{2: c.read})
		if ok != c.ok || len(rowsOf) != 0 {
			t.Errorf("%s: check says %v, rows to read %v; want %v and no rows (they are in flight)", c.what, ok, rowsOf, c.ok)
		}
	}
}
