package identity

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"prode/platform/session"
	"prode/platform/testenv"
	"prode/players/internal/displayname"
)

// FuzzDevExchange: the dev provider's code exchange (POST /api/sesion in dev mode). No input
// panics; refusals are ErrBadCode (which the players service answers with 401); an accepted
// code is "dev.<payload>.<mac>" under our key, unexpired, and yields an ID token, and is refused
// with ErrBadCode when exchanged again.
// Seeds: testdata/fuzz/FuzzDevExchange (codes minted by fuzzProvider, and broken ones; seed-16
// is a genuine code of before nonces, seed-17 one with a short nonce: both refused).
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
		if _, err := d.Exchange(context.Background(), code); !errors.Is(err, ErrBadCode) {
			t.Fatalf("%q accepted twice (second answer: %v)", code, err)
		}
	})
}

// FuzzDevAccount: the dev chooser's "use another account" form (POST /api/sesion/dev), then the
// sign-in with the code it hands out. No input panics; refusals are 4xx *apierror.Error (the
// chooser shows their message); an accepted account has a name displayname.Check keeps as it
// is (no NUL, which PostgreSQL refused at sign-in with a 500, nor any control or invisible
// character) and a normalized address, and its code exchanges into an ID token.
// Seeds: testdata/fuzz/FuzzDevAccount.
func FuzzDevAccount(f *testing.F) {
	d := fuzzProvider(f)
	d.newNonce = randomNonce // each code its own, as in production
	f.Fuzz(func(t *testing.T, nombre, email string) {
		a, err := NewDevAccount(nombre, email)
		if err != nil {
			testenv.ClientError(t, err, []byte(nombre+"\n"+email))
			return
		}
		if checked, err := displayname.Check(a.Nombre); err != nil || checked != a.Nombre {
			t.Fatalf("%q accepted as %q, which the name rules refuse (%v)", nombre, a.Nombre, err)
		}
		if a.Email != session.NormalizeEmail(a.Email) || !strings.Contains(a.Email, "@") ||
			strings.IndexFunc(a.Email, func(r rune) bool { return unicode.In(r, unicode.C, unicode.Z) }) >= 0 {
			t.Fatalf("%q accepted as %q", email, a.Email)
		}
		if _, err := d.Exchange(context.Background(), d.Code(a)); err != nil {
			t.Fatalf("the code for %+v: %v", a, err)
		}
	})
}

// memoryUsedCodes is UsedCodes in memory, for the tests that need no database (the players
// service's handler tests use the real table).
type memoryUsedCodes struct {
	mu   sync.Mutex
	used map[string]time.Time
	err  error // when set, every call fails with it, as PostgreSQL down would
}

func (m *memoryUsedCodes) MarkDevCodeUsed(_ context.Context, nonce string, vence time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return false, m.err
	}
	if m.used == nil {
		m.used = map[string]time.Time{}
	}
	if _, ok := m.used[nonce]; ok {
		return false, nil
	}
	m.used[nonce] = vence
	return true, nil
}

// fuzzProvider has a fixed code key, clock and nonce, so the checked-in seeds stay valid, and a
// record of used codes of its own: a valid seed is accepted the first time the provider sees it.
func fuzzProvider(tb testing.TB) *DevProvider {
	d, err := NewDevProvider([]byte("0123456789abcdef0123456789abcdef"), &memoryUsedCodes{})
	if err != nil {
		tb.Fatal(err)
	}
	d.now = func() time.Time { return time.Unix(1_800_000_000, 0) }
	d.newNonce = func() string { return "00112233445566778899aabbccddeeff" }
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

const validSeed = "dev.eyJlbWFpbCI6ImFuYUBwcm9kZS50ZXN0Iiwibm9tYnJlIjoiQW5hIEfDs21leiIsImV4cCI6MTgwMDAwMDEyMCwibm9uY2UiOiIwMDExMjIzMzQ0NTU2Njc3ODg5OWFhYmJjY2RkZWVmZiJ9.f772d07d02f4ca2bc1f4261c00d6aa98504c4aa3a743b1d083a44b39d1285d84"
