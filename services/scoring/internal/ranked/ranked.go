// Package ranked ranks a tournament's players into a table and keeps it compact: a standings
// snapshot is ranked here, in the scoring process, and stored as one value (WriteTo), not as a
// row per player, so that a new snapshot costs a sort in memory and one write at any number of
// players (docs/benchmarks.md, "Toward 2 million players").
package ranked

import (
	"cmp"
	"math/bits"
	"slices"
)

// Total is what a player has in a tournament when a snapshot is taken.
type Total struct {
	Jugador  int64
	Puntaje  int32 // bonus points included
	Exactos  int32
	Aciertos int32
	Bonus    int32 // the part of Puntaje that bonus questions gave
	DelDia   int32 // the points of the last matchday, which Anterior leaves out
}

// Row is one row of a ranked table.
type Row struct {
	Jugador  int64
	Puntaje  int32
	Exactos  int32
	Aciertos int32
	Bonus    int32
	Posicion int32
	Anterior int32 // the rank without the last matchday's points; 0: none (one matchday or less)
	DelDia   int32 // the points of the last matchday (kept so that the next snapshot can carry them)
}

// Table is a ranked table: its rows in display order (fila 1 first) and, to find a player's
// row, the rows' indexes in player order.
type Table struct {
	rows     []Row
	byPlayer []int32
}

// Rank ranks totals (one per player) as the standings rank them: competition ranking by
// points (10, 10, 8 -> 1, 1, 3); display order by points, exact hits, right outcomes, then
// player id, so that a player registered later, without points, comes after every row.
// withPrevious also ranks each player without the last matchday's points (Anterior).
func Rank(totals []Total, withPrevious bool) *Table {
	if !slices.IsSortedFunc(totals, byPlayer) {
		totals = slices.SortedFunc(slices.Values(totals), byPlayer)
	}
	order := displayOrder(totals)
	t := &Table{rows: make([]Row, len(totals)), byPlayer: make([]int32, len(totals))}
	var previous competition
	if withPrevious {
		previous = competitionOf(totals, func(x *Total) int32 { return x.Puntaje - x.DelDia })
	}
	for fila, i := range order {
		x := &totals[i]
		r := Row{Jugador: x.Jugador, Puntaje: x.Puntaje, Exactos: x.Exactos, Aciertos: x.Aciertos, Bonus: x.Bonus,
			Posicion: int32(fila) + 1, DelDia: x.DelDia}
		if fila > 0 && t.rows[fila-1].Puntaje == x.Puntaje {
			r.Posicion = t.rows[fila-1].Posicion
		}
		if withPrevious {
			r.Anterior = previous.rank(x.Puntaje - x.DelDia)
		}
		t.rows[fila] = r
		t.byPlayer[i] = int32(fila) // totals are in player order
	}
	return t
}

func byPlayer(a, b Total) int { return cmp.Compare(a.Jugador, b.Jugador) }

// displayOrder is the indexes of totals (in player order) in display order. Each player's sort
// key packs the three columns and the index into one integer when they fit, so that two million
// players sort as plain integers (a fraction of a second), not through a comparison function
// reading scattered totals (several seconds).
func displayOrder(totals []Total) []int32 {
	order := make([]int32, len(totals))
	var lo, hi [3]int64
	for i := range totals {
		for c, v := range columns(&totals[i]) {
			if i == 0 || v < lo[c] {
				lo[c] = v
			}
			if i == 0 || v > hi[c] {
				hi[c] = v
			}
		}
	}
	var widths [3]int
	used := bits.Len64(uint64(len(totals)))
	for c := range widths {
		widths[c] = bits.Len64(uint64(hi[c] - lo[c]))
		used += widths[c]
	}
	if used > 64 {
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortStableFunc(order, func(a, b int32) int {
			x, y := columns(&totals[a]), columns(&totals[b])
			return slices.Compare(y[:], x[:]) // higher first; stable: player order on ties
		})
		return order
	}
	keys := make([]uint64, len(totals))
	indexBits := bits.Len64(uint64(len(totals)))
	for i := range totals {
		var k uint64
		for c, v := range columns(&totals[i]) {
			k = k<<widths[c] | uint64(hi[c]-v) // the highest value first
		}
		keys[i] = k<<indexBits | uint64(i)
	}
	slices.Sort(keys)
	for fila, k := range keys {
		order[fila] = int32(k & (1<<indexBits - 1))
	}
	return order
}

// columns are what orders the rows, most significant first.
func columns(x *Total) [3]int64 {
	return [3]int64{int64(x.Puntaje), int64(x.Exactos), int64(x.Aciertos)}
}

// competition ranks values from the highest: a value's rank is one more than the number of
// values above it.
type competition struct{ ascending []int32 }

func competitionOf(totals []Total, value func(*Total) int32) competition {
	c := competition{ascending: make([]int32, len(totals))}
	for i := range totals {
		c.ascending[i] = value(&totals[i])
	}
	slices.Sort(c.ascending)
	return c
}

func (c competition) rank(v int32) int32 {
	notAbove, _ := slices.BinarySearch(c.ascending, v+1) // values up to v
	return int32(len(c.ascending)-notAbove) + 1
}

// Totals are what the table ranked, in player order: a new snapshot starts from them and adds
// what changed since (store.StandingsStore.CarryAhead).
func (t *Table) Totals() []Total {
	totals := make([]Total, len(t.byPlayer))
	for i, fila := range t.byPlayer {
		r := &t.rows[fila]
		totals[i] = Total{Jugador: r.Jugador, Puntaje: r.Puntaje, Exactos: r.Exactos, Aciertos: r.Aciertos,
			Bonus: r.Bonus, DelDia: r.DelDia}
	}
	return totals
}

// Len is the number of rows.
func (t *Table) Len() int64 { return int64(len(t.rows)) }

// Row is the row at fila (from 1 to Len).
func (t *Table) Row(fila int64) Row { return t.rows[fila-1] }

// Rows are the rows from fila desde+1 to hasta (clamped to the table).
func (t *Table) Rows(desde, hasta int64) []Row {
	desde, hasta = max(0, min(desde, t.Len())), max(0, min(hasta, t.Len()))
	return t.rows[desde:max(desde, hasta)]
}

// Find is a player's fila, false when the player has no row.
func (t *Table) Find(jugador int64) (int64, bool) {
	i, ok := slices.BinarySearchFunc(t.byPlayer, jugador, func(r int32, id int64) int { return cmp.Compare(t.rows[r].Jugador, id) })
	if !ok {
		return 0, false
	}
	return int64(t.byPlayer[i]) + 1, true
}

// PositionOfZeros is the rank of a player without points: the rank the table's players without
// points share, or the one after every row.
func (t *Table) PositionOfZeros() int64 {
	i, found := slices.BinarySearchFunc(t.rows, int32(0), func(r Row, zero int32) int { return cmp.Compare(zero, r.Puntaje) })
	if found {
		return int64(t.rows[i].Posicion)
	}
	return t.Len() + 1
}

// Holds reports whether the table is totals (in player order) ranked, with a previous rank or
// without: ranking them again would give the same rows.
func (t *Table) Holds(totals []Total, withPrevious bool) bool {
	if len(totals) != len(t.rows) {
		return false
	}
	for i, fila := range t.byPlayer {
		r, x := &t.rows[fila], &totals[i]
		if r.Jugador != x.Jugador || r.Puntaje != x.Puntaje || r.Exactos != x.Exactos || r.Aciertos != x.Aciertos ||
			r.Bonus != x.Bonus || r.DelDia != x.DelDia || (r.Anterior != 0) != withPrevious {
			return false
		}
	}
	return true
}
