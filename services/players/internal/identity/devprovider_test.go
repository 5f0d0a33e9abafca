package identity

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The exchange's rules without a database (the handler tests in internal/http run them on the
// real players.codigos_dev_usados): a code works once, a fresh code for the same account works,
// the record of used codes is only consulted for genuine unexpired codes, and a failure to
// record is an error, never a success nor a plain refusal.
func TestDevCodesAreSingleUse(t *testing.T) {
	ctx := context.Background()
	used := &memoryUsedCodes{}
	d, err := NewDevProvider([]byte("0123456789abcdef0123456789abcdef"), used)
	if err != nil {
		t.Fatal(err)
	}
	ana := DevAccount{Nombre: "Ana Gómez", Email: "ana@prode.test"}
	first := d.Code(ana)
	if _, err := d.Exchange(ctx, first); err != nil {
		t.Fatalf("first exchange: %v", err)
	}
	if _, err := d.Exchange(ctx, first); !errors.Is(err, ErrBadCode) {
		t.Fatalf("second exchange of the same code: %v, want ErrBadCode", err)
	}
	second := d.Code(ana)
	if second == first {
		t.Fatal("two codes for the same account in the same second are equal")
	}
	if _, err := d.Exchange(ctx, second); err != nil {
		t.Fatalf("a fresh code for the same account: %v", err)
	}

	// Expired and forged codes are refused before the record is consulted.
	expired := d.Code(ana)
	d.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	if _, err := d.Exchange(ctx, expired); !errors.Is(err, ErrBadCode) {
		t.Fatalf("expired code: %v", err)
	}
	d.now = time.Now
	forged := d.Code(ana)
	if forged[len(forged)-1] == '0' {
		forged = forged[:len(forged)-1] + "1"
	} else {
		forged = forged[:len(forged)-1] + "0"
	}
	if _, err := d.Exchange(ctx, forged); !errors.Is(err, ErrBadCode) {
		t.Fatalf("changed MAC: %v", err)
	}
	if len(used.used) != 2 {
		t.Fatalf("%d codes recorded, want the 2 accepted ones", len(used.used))
	}

	// The database is away: the exchange fails with its error, the code stays unused.
	down := errors.New("connection refused")
	used.err = down
	third := d.Code(ana)
	if tok, err := d.Exchange(ctx, third); !errors.Is(err, down) || errors.Is(err, ErrBadCode) || tok != "" {
		t.Fatalf("record failing: %q, %v; want the error, not ErrBadCode", tok, err)
	}
	used.err = nil
	if _, err := d.Exchange(ctx, third); err != nil {
		t.Fatalf("the same code once the record is back: %v", err)
	}

	if _, err := NewDevProvider([]byte("k"), nil); err == nil {
		t.Fatal("a dev provider without a record of used codes")
	}
}
