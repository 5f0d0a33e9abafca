package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestIsUnavailableTellsOutagesFromRefusals(t *testing.T) {
	for err, want := range map[error]bool{
		nil:                                      false,
		errors.New("boom"):                       false,
		&pgconn.PgError{Code: "23505"}:           false,
		&pgconn.PgError{Code: "08006"}:           true,
		&pgconn.PgError{Code: "57P01"}:           true,
		fmt.Errorf("q: %w", io.ErrUnexpectedEOF): true, // the server killed mid-reply
		io.EOF:                                   true,
		context.DeadlineExceeded:                 true,
	} {
		if got := IsUnavailable(err); got != want {
			t.Errorf("%v: %v, want %v", err, got, want)
		}
	}
}
