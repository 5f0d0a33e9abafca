package identity

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzDevExchange: the dev provider's code exchange (POST /api/sesion in dev mode). No input
// panics; refusals are ErrBadCode (which the players service answers with 401); an accepted
// code is "dev.<payload>.<mac>" under our key, unexpired, and yields an ID token.
// Seeds: testdata/fuzz/FuzzDevExchange (codes minted by fuzzProvider, and broken ones).
func FuzzDevExchange(f *testing.F) {
	d := fuzzProvider(f)
	f.Fuzz(func(t *testing.T, code string) {
		tok, err := d.Exchange(context.Background(), code)
		if err != nil {
			if !errors.Is(err, ErrBadCode) {
				t.Fatalf("%q: error %v is not ErrBadCode", code, err)
			}
			return
		}
		if !strings.HasPrefix(code, "dev.") || strings.Count(code, ".") != 2 || tok == "" {
			t.Fatalf("%q accepted", code)
		}
	})
}

// fuzzProvider has a fixed code key and clock, so the checked-in seeds stay valid.
func fuzzProvider(tb testing.TB) *DevProvider {
	d, err := NewDevProvider([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		tb.Fatal(err)
	}
	d.now = func() time.Time { return time.Unix(1_800_000_000, 0) }
	return d
}

// TestFuzzSeedsHoldValidCodes keeps the seed corpus useful: its first seed must be accepted.
func TestFuzzSeedsHoldValidCodes(t *testing.T) {
	d := fuzzProvider(t)
	if got := d.Code(DevAccount{Nombre: "Ana Gómez", Email: "ana@prode.test"}); got != validSeed {
		t.Fatalf("the minted code changed; regenerate testdata/fuzz/FuzzDevExchange/seed-01 with %q", got)
	}
	if _, err := d.Exchange(context.Background(), validSeed); err != nil {
		t.Fatal(err)
	}
}

const validSeed = "dev.eyJlbWFpbCI6ImFuYUBwcm9kZS50ZXN0Iiwibm9tYnJlIjoiQW5hIEfDs21leiIsImV4cCI6MTgwMDAwMDEyMH0.c065e14fb726149b5d9e0bbd9538e36aee4d0c3b307777d74b21d962e793fbef"
