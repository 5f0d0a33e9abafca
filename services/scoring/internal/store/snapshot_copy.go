package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"prode/scoring/internal/ranked"
)

// copySnapshot is the statement that stores a snapshot, its columns in the order writeSnapshot
// sends them.
const copySnapshot = `
	COPY scoring.tablas_compactas (id, torneo_id, jugadores_hasta, filas, posicion_ceros, contados, fecha_del_dia, datos)
	FROM STDIN (FORMAT binary)`

// writeSnapshot stores snapshot t (its id already drawn) with a COPY of one row, the encoded
// table streamed to PostgreSQL 64 KB at a time as ranked.WriteTo writes it. An INSERT takes it
// as a parameter: the table encoded whole, and pgx's copy of it in the message, 160 MB at 2
// million players on top of the tables in memory (docs/operations.md, "Scoring's memory").
func writeSnapshot(ctx context.Context, tx pgx.Tx, t Tabla, table *ranked.Table, contados Contados, fechaDelDia *time.Time) error {
	// PostgreSQL's binary COPY: a signature, flags and header extension length, then the row:
	// its field count, each field's length (-1: NULL) and bytes; then -1 where the next row's
	// field count would be.
	head := append([]byte("PGCOPY\n\xff\r\n\x00"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 8)
	fields := []struct {
		oid   uint32
		value any
	}{
		{pgtype.Int8OID, t.ID}, {pgtype.Int8OID, t.Torneo}, {pgtype.Int8OID, t.JugadoresHasta},
		{pgtype.Int4OID, t.Filas}, {pgtype.Int4OID, t.PosicionCeros},
		{pgtype.JSONBOID, contados}, {pgtype.DateOID, fechaDelDia},
	}
	var err error
	for _, f := range fields {
		if head, err = appendCopyField(tx.Conn().TypeMap(), head, f.oid, f.value); err != nil {
			return err
		}
	}
	head = binary.BigEndian.AppendUint32(head, uint32(table.EncodedLen()))

	datos, encoder := io.Pipe()
	go func() {
		_, err := table.WriteTo(encoder)
		if err == nil {
			_, err = encoder.Write([]byte{0xff, 0xff})
		}
		encoder.CloseWithError(err)
	}()
	_, err = tx.Conn().PgConn().CopyFrom(ctx, io.MultiReader(bytes.NewReader(head), datos), copySnapshot)
	// Closing the reading end stops the encoder when the COPY ended before reading it all (a
	// pipe's Close returns nil).
	_ = datos.Close()
	return err
}

// appendCopyField appends value to a binary COPY row as the type of oid: its length, then its
// bytes in PostgreSQL's binary format (as pgx sends a parameter of that type).
func appendCopyField(m *pgtype.Map, row []byte, oid uint32, value any) ([]byte, error) {
	at := len(row)
	out, err := m.Encode(oid, pgtype.BinaryFormatCode, value, append(row, 0, 0, 0, 0))
	if err != nil {
		return nil, err
	}
	if out == nil { // NULL
		return binary.BigEndian.AppendUint32(row[:at], 0xffffffff), nil
	}
	binary.BigEndian.PutUint32(out[at:], uint32(len(out)-at-4))
	return out, nil
}
