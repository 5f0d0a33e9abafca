package ranked

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// format is the first byte of an encoded table. Format 1 (the release before) had no DelDia
// column; it is still read, with DelDia 0 (such a snapshot is never carried: store.StandingsStore.CarryAhead).
const format = 2

// columnsOf is how many 4-byte columns follow the player in a row of each format.
var columnsOf = map[byte]int{1: 6, 2: 7}

// EncodedLen is how many bytes WriteTo writes.
func (t *Table) EncodedLen() int { return 1 + len(t.rows)*(8+4*columnsOf[format]+4) }

// WriteTo writes the table as one value: the format byte, then each row in display order,
// little endian (the player, points, exact hits, right outcomes, bonus, rank, previous rank, the
// last matchday's points), then the index by player (each player's row, in player order), so
// that decoding sorts nothing. It writes 64 KB at a time: at 2 million players the value is
// 80 MB, which the store streams to PostgreSQL rather than holding (store.writeSnapshot).
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	const chunk = 64 << 10
	out := make([]byte, 1, chunk)
	out[0] = format
	var written int64
	flush := func(room int) error {
		if cap(out)-len(out) >= room {
			return nil
		}
		n, err := w.Write(out)
		written += int64(n)
		if err == nil && n < len(out) {
			err = io.ErrShortWrite
		}
		out = out[:0]
		return err
	}
	rowSize := 8 + 4*columnsOf[format]
	for _, r := range t.rows {
		if err := flush(rowSize); err != nil {
			return written, err
		}
		out = binary.LittleEndian.AppendUint64(out, uint64(r.Jugador))
		for _, c := range [...]int32{r.Puntaje, r.Exactos, r.Aciertos, r.Bonus, r.Posicion, r.Anterior, r.DelDia} {
			out = binary.LittleEndian.AppendUint32(out, uint32(c))
		}
	}
	for _, fila := range t.byPlayer {
		if err := flush(4); err != nil {
			return written, err
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(fila))
	}
	return written, flush(chunk)
}

// Decode reads a table WriteTo wrote (this release's format or the one before).
func Decode(b []byte) (*Table, error) {
	if len(b) == 0 || columnsOf[b[0]] == 0 {
		return nil, errors.New("ranked table: unknown format")
	}
	rowSize := 8 + 4*columnsOf[b[0]]
	b = b[1:]
	if len(b)%(rowSize+4) != 0 {
		return nil, fmt.Errorf("ranked table: %d bytes is not a whole number of rows", len(b))
	}
	n := len(b) / (rowSize + 4)
	t := &Table{rows: make([]Row, n), byPlayer: make([]int32, n)}
	for i := range t.rows {
		c := b[i*rowSize : (i+1)*rowSize]
		col := func(n int) int32 {
			if 8+4*n >= len(c) {
				return 0 // a column the row's format does not have
			}
			return int32(binary.LittleEndian.Uint32(c[8+4*n:]))
		}
		t.rows[i] = Row{Jugador: int64(binary.LittleEndian.Uint64(c)), Puntaje: col(0), Exactos: col(1),
			Aciertos: col(2), Bonus: col(3), Posicion: col(4), Anterior: col(5), DelDia: col(6)}
	}
	index := b[n*rowSize:]
	for i := range t.byPlayer {
		fila := int32(binary.LittleEndian.Uint32(index[4*i:]))
		if fila < 0 || int(fila) >= n {
			return nil, errors.New("ranked table: an index entry points past the rows")
		}
		t.byPlayer[i] = fila
	}
	return t, nil
}
