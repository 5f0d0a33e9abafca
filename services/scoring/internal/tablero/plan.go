// Package tablero serves the around-me board of every table (the tournament's, a matchday's, a
// league's): the top 3, the player, the players just above and below, the last place and the
// players the player pinned, each row with the reasons that put it there; the rows of any range
// of a table ("ver 10 más"); and the pins themselves.
//
// A board is planned from filas (a row's place in the table's display order) alone (plan), so
// that reading one costs a few lookups by fila and by player in the table, never a scan of it.
package tablero

import (
	"cmp"
	"slices"
)

// The reasons a row is on a board (motivos), in the order a row lists them.
const (
	Top    = "top"
	Yo     = "yo"
	Vecino = "vecino"
	Ultimo = "ultimo"
	Fijado = "fijado"
)

var orden = []string{Top, Yo, Vecino, Ultimo, Fijado}

// Tamano is how many rows a board shows besides the pinned ones, whenever the table has that
// many: the top 3, the one above the player, the player, the one below, the last.
const Tamano = 7

// Arriba is how many rows the top holds.
const Arriba = 3

// Entrada is one row of a planned board.
type Entrada struct {
	Fila    int64
	Motivos []string
}

// plan picks the filas of a board of a table of total rows, for the player at fila yo (0: not
// in the table) with pins at the given filas:
//
//   - the top 3 (top), the last row (ultimo), the player (yo) and the rows just above and below
//     (vecino);
//   - when those overlap (the player in the top 3, or last, or next to the last), the rows
//     around the player fill in, one below then one above, alternately, each side as long as
//     the table goes on, until the board holds Tamano rows (vecino): the player 2nd shows rows 1
//     to 6 and the last; the player last shows the top 3 and the 4 last;
//   - a player not in the table (a matchday they scored nothing on): the top grows to
//     Tamano - 1 rows, then the last;
//   - then each pinned row (fijado), on top of those: a row already there gains the reason.
//
// So a board always holds min(Tamano, total) rows plus the pinned rows not among them, and no
// row twice. Its entries come in fila order.
func plan(total, yo int64, pins []int64) []Entrada {
	motivos := map[int64][]string{}
	add := func(fila int64, motivo string) {
		if fila < 1 || fila > total || slices.Contains(motivos[fila], motivo) {
			return
		}
		motivos[fila] = append(motivos[fila], motivo)
	}
	target := min(Tamano, total)
	if yo < 1 || yo > total {
		for f := int64(1); f <= Tamano-1; f++ {
			add(f, Top)
		}
	} else {
		for f := int64(1); f <= Arriba; f++ {
			add(f, Top)
		}
		add(yo, Yo)
		add(yo-1, Vecino)
		add(yo+1, Vecino)
	}
	add(total, Ultimo)
	if yo >= 1 && yo <= total {
		lo, hi := max(yo-1, 1), min(yo+1, total)
		for int64(len(motivos)) < target {
			grew := false
			if hi < total {
				hi++
				add(hi, Vecino)
				grew = true
			}
			if int64(len(motivos)) < target && lo > 1 {
				lo--
				add(lo, Vecino)
				grew = true
			}
			if !grew {
				break
			}
		}
	}
	for _, f := range pins {
		add(f, Fijado)
	}
	out := make([]Entrada, 0, len(motivos))
	for f, ms := range motivos {
		slices.SortFunc(ms, func(a, b string) int { return slices.Index(orden, a) - slices.Index(orden, b) })
		out = append(out, Entrada{Fila: f, Motivos: ms})
	}
	slices.SortFunc(out, func(a, b Entrada) int { return cmp.Compare(a.Fila, b.Fila) })
	return out
}
