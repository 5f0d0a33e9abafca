package tablero

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// show writes a plan as "fila:motivo+motivo ...", to compare with what a reader expects.
func show(es []Entrada) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprintf("%d:%s", e.Fila, strings.Join(e.Motivos, "+"))
	}
	return strings.Join(parts, " ")
}

// checkPlan compares the plan of a table of total rows, for the player at row yo (0: not in it)
// with pins, to want.
func checkPlan(t *testing.T, name string, total, yo int64, pins []int64, want string) {
	t.Helper()
	if got := show(plan(total, yo, pins)); got != want {
		t.Errorf("%s (total %d, yo %d, pins %v):\n got %s\nwant %s", name, total, yo, pins, got, want)
	}
}

// The rule, case by case in a table of 20: the top 3, the player and their neighbours, the
// last; rows around the player fill in when those overlap, so that the board keeps 7 rows.
func TestPlanAroundThePlayer(t *testing.T) {
	for _, c := range []struct {
		name string
		yo   int64
		want string
	}{
		{"in the middle", 10, "1:top 2:top 3:top 9:vecino 10:yo 11:vecino 20:ultimo"},
		{"first", 1, "1:top+yo 2:top+vecino 3:top+vecino 4:vecino 5:vecino 6:vecino 20:ultimo"},
		{"second: more rows below", 2, "1:top+vecino 2:top+yo 3:top+vecino 4:vecino 5:vecino 6:vecino 20:ultimo"},
		{"fourth", 4, "1:top 2:top 3:top+vecino 4:yo 5:vecino 6:vecino 20:ultimo"},
		{"fifth: no overlap", 5, "1:top 2:top 3:top 4:vecino 5:yo 6:vecino 20:ultimo"},
		{"next to last", 19, "1:top 2:top 3:top 17:vecino 18:vecino 19:yo 20:vecino+ultimo"},
		{"last: more rows above", 20, "1:top 2:top 3:top 17:vecino 18:vecino 19:vecino 20:yo+ultimo"},
		{"not in the table", 0, "1:top 2:top 3:top 4:top 5:top 6:top 20:ultimo"},
	} {
		checkPlan(t, c.name, 20, c.yo, nil, c.want)
	}
}

// Tables of 7 rows or fewer: every row is on the board.
func TestPlanOfASmallTable(t *testing.T) {
	for _, c := range []struct {
		name      string
		total, yo int64
		want      string
	}{
		{"exactly seven", 7, 4, "1:top 2:top 3:top+vecino 4:yo 5:vecino 6:vecino 7:ultimo"},
		{"small table", 4, 2, "1:top+vecino 2:top+yo 3:top+vecino 4:ultimo"},
		{"one row", 1, 1, "1:top+yo+ultimo"},
		{"empty", 0, 0, ""},
	} {
		checkPlan(t, c.name, c.total, c.yo, nil, c.want)
	}
}

// Pins go on top of the board's rows, each once; rows out of the table are left out.
func TestPlanWithPins(t *testing.T) {
	checkPlan(t, "pins apart and on the board", 20, 10, []int64{15, 11, 2},
		"1:top 2:top+fijado 3:top 9:vecino 10:yo 11:vecino+fijado 15:fijado 20:ultimo")
	checkPlan(t, "pins out of the table are left out", 20, 10, []int64{0, 21},
		"1:top 2:top 3:top 9:vecino 10:yo 11:vecino 20:ultimo")
}

// Whatever the table and the player's place, a board holds min(7, total) rows besides the pins,
// every one once, in order, and always the top, the player and the last.
func TestPlanKeepsItsCount(t *testing.T) {
	for total := int64(0); total <= 30; total++ {
		for yo := int64(0); yo <= total; yo++ {
			got := plan(total, yo, nil)
			if int64(len(got)) != min(Tamano, total) {
				t.Fatalf("total %d, yo %d: %d rows (%s), want %d", total, yo, len(got), show(got), min(Tamano, total))
			}
			filas := make([]int64, len(got))
			for i, e := range got {
				filas[i] = e.Fila
			}
			if !slices.IsSorted(filas) || len(slices.Compact(slices.Clone(filas))) != len(filas) {
				t.Fatalf("total %d, yo %d: rows %v not in order or repeated", total, yo, filas)
			}
			if total > 0 && (filas[0] != 1 || filas[len(filas)-1] != total) {
				t.Fatalf("total %d, yo %d: rows %v without the first or the last", total, yo, filas)
			}
			if yo > 0 && !slices.Contains(filas, yo) {
				t.Fatalf("total %d, yo %d: rows %v without the player", total, yo, filas)
			}
		}
	}
}
