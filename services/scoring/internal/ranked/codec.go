package ranked

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// format is the first byte of an encoded table; a decoder refuses any other.
const format = 1

// rowSize is the bytes of one encoded row: the player (8), then six 4-byte columns.
const rowSize = 8 + 6*4

// Encode writes the table as one value: the format byte, then each row in display order, little
// endian (the player, points, exact hits, right outcomes, bonus, rank, previous rank), then the
// index by player (each player's row, in player order), so that decoding sorts nothing.
func (t *Table) Encode() []byte {
	out := make([]byte, 1, 1+len(t.rows)*(rowSize+4))
	out[0] = format
	for _, r := range t.rows {
		out = binary.LittleEndian.AppendUint64(out, uint64(r.Jugador))
		for _, c := range [...]int32{r.Puntaje, r.Exactos, r.Aciertos, r.Bonus, r.Posicion, r.Anterior} {
			out = binary.LittleEndian.AppendUint32(out, uint32(c))
		}
	}
	for _, fila := range t.byPlayer {
		out = binary.LittleEndian.AppendUint32(out, uint32(fila))
	}
	return out
}

// Decode reads a table Encode wrote.
func Decode(b []byte) (*Table, error) {
	if len(b) == 0 || b[0] != format {
		return nil, errors.New("ranked table: unknown format")
	}
	b = b[1:]
	if len(b)%(rowSize+4) != 0 {
		return nil, fmt.Errorf("ranked table: %d bytes is not a whole number of rows", len(b))
	}
	n := len(b) / (rowSize + 4)
	t := &Table{rows: make([]Row, n), byPlayer: make([]int32, n)}
	for i := range t.rows {
		c := b[i*rowSize:]
		col := func(n int) int32 { return int32(binary.LittleEndian.Uint32(c[8+4*n:])) }
		t.rows[i] = Row{Jugador: int64(binary.LittleEndian.Uint64(c)), Puntaje: col(0), Exactos: col(1),
			Aciertos: col(2), Bonus: col(3), Posicion: col(4), Anterior: col(5)}
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
