package ranked

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestRankOrdersAndRanksAsTheStandings(t *testing.T) {
	table := Rank([]Total{
		{Jugador: 5, Puntaje: 10, Exactos: 1, Aciertos: 1},
		{Jugador: 2, Puntaje: 12, Exactos: 0, Aciertos: 2, DelDia: 12},
		{Jugador: 9, Puntaje: 0},
		{Jugador: 3, Puntaje: 10, Exactos: 1, Aciertos: 1, Bonus: 3},
		{Jugador: 7, Puntaje: 10, Exactos: 0, Aciertos: 2},
		{Jugador: 4, Puntaje: 0},
	}, true)
	var got [][3]int64 // jugador, posicion, anterior
	for fila := int64(1); fila <= table.Len(); fila++ {
		r := table.Row(fila)
		got = append(got, [3]int64{r.Jugador, int64(r.Posicion), int64(r.Anterior)})
	}
	// 12 > 10 = 10 = 10 > 0 = 0; among the 10s exact hits first, then the lower id. Without the
	// last matchday, player 2 had 0 points: the three 10s were first.
	want := [][3]int64{{2, 1, 4}, {3, 2, 1}, {5, 2, 1}, {7, 2, 1}, {4, 5, 4}, {9, 5, 4}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows (jugador, posicion, anterior) = %v, want %v", got, want)
	}
	if z := table.PositionOfZeros(); z != 5 {
		t.Errorf("PositionOfZeros = %d, want 5 (the rank the players without points share)", z)
	}
	for jugador, fila := range map[int64]int64{2: 1, 3: 2, 9: 6} {
		if f, ok := table.Find(jugador); !ok || f != fila {
			t.Errorf("Find(%d) = %d, %v; want %d", jugador, f, ok, fila)
		}
	}
	if _, ok := table.Find(6); ok {
		t.Error("Find(6) found a player who has no row")
	}
	if r := table.Row(2); r.Bonus != 3 {
		t.Errorf("player 3's bonus = %d, want 3", r.Bonus)
	}
}

func TestRankWithoutPreviousLeavesAnteriorEmpty(t *testing.T) {
	table := Rank([]Total{{Jugador: 1, Puntaje: 5, DelDia: 5}, {Jugador: 2, Puntaje: 7}}, false)
	for fila := int64(1); fila <= 2; fila++ {
		if a := table.Row(fila).Anterior; a != 0 {
			t.Errorf("fila %d: Anterior = %d with one matchday, want 0", fila, a)
		}
	}
	if z := table.PositionOfZeros(); z != 3 {
		t.Errorf("PositionOfZeros = %d, want 3 (after every row: nobody is without points)", z)
	}
}

func TestRowsClampToTheTable(t *testing.T) {
	table := Rank([]Total{{Jugador: 1}, {Jugador: 2}, {Jugador: 3}}, false)
	if n := len(table.Rows(1, 10)); n != 2 {
		t.Errorf("Rows(1, 10) = %d rows, want 2", n)
	}
	if n := len(table.Rows(5, 10)); n != 0 {
		t.Errorf("Rows(5, 10) = %d rows, want 0", n)
	}
	if n := len(Rank(nil, true).Rows(0, 100)); n != 0 {
		t.Errorf("an empty table has %d rows", n)
	}
}

func TestEncodeDecodeKeepsEveryRow(t *testing.T) {
	// 5,000 rows: 200 KB, written in several chunks.
	table := Rank(randomTotals(5000), true)
	back, err := Decode(encode(t, table))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.rows, table.rows) || !reflect.DeepEqual(back.byPlayer, table.byPlayer) {
		t.Fatal("a decoded table differs from the one encoded")
	}
	if _, err := Decode([]byte{9, 1, 2}); err == nil {
		t.Error("Decode took an unknown format")
	}
	if _, err := Decode(encode(t, table)[:40]); err == nil {
		t.Error("Decode took a truncated table")
	}
}

// encode is what WriteTo writes, checked against EncodedLen.
func encode(t testing.TB, table *Table) []byte {
	t.Helper()
	var b bytes.Buffer
	if n, err := table.WriteTo(&b); err != nil || n != int64(table.EncodedLen()) || b.Len() != table.EncodedLen() {
		t.Fatalf("WriteTo wrote %d bytes (%d buffered), err %v; EncodedLen says %d", n, b.Len(), err, table.EncodedLen())
	}
	return b.Bytes()
}

func randomTotals(n int) []Total {
	rng := rand.New(rand.NewPCG(2026, 11))
	totals := make([]Total, n)
	for i := range totals {
		exactos, aciertos := rng.Int32N(8), rng.Int32N(16)
		dia := rng.Int32N(30)
		totals[i] = Total{Jugador: int64(i + 1), Exactos: exactos, Aciertos: aciertos + exactos,
			Puntaje: 10*exactos + 5*aciertos + rng.Int32N(20) + dia, DelDia: dia}
	}
	return totals
}

// BenchmarkRank is the in-memory part of a new snapshot at the largest games' scale (make bench
// measures the whole path): go test -bench Rank -benchmem ./internal/ranked/
func BenchmarkRank2M(b *testing.B) {
	totals := randomTotals(2_000_000)
	for b.Loop() {
		Rank(totals, true)
	}
}

func BenchmarkEncodeDecode2M(b *testing.B) {
	table := Rank(randomTotals(2_000_000), true)
	for b.Loop() {
		if _, err := Decode(encode(b, table)); err != nil {
			b.Fatal(err)
		}
	}
}
