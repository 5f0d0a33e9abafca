package http_test

import (
	"net/http"
	"testing"
	"time"

	"prode/platform/ratelimit"
	"prode/platform/testenv"
)

// The probe's scenario: a cookie Ana ended with 'Salir' is replayed thirty times (answered
// 401 while its own allowance lasts, then 429), and Bruno's live session posts thirty times to
// Ana's path (403, then 429). Neither costs Ana anything: her live session still has its whole
// burst of 20 writes, and only then is refused. With the allowance per player, the replayed
// cookie used it up and Ana's saves answered 429 just before a cut-off.
func TestRefusedWritesCostTheOwnerNothing(t *testing.T) {
	limit := ratelimit.New(5, 20) // WRITE_RATE and WRITE_BURST's defaults
	clock := time.Now()
	limit.SetClock(func() time.Time { return clock }) // no refill during the test
	f := newLimitedFixture(t, limit)
	ended := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	f.exec(`UPDATE players.sesiones SET cerrada = now() WHERE jugador_id = $1`, ended.ID) // 'Salir'
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)                        // signed in again
	bruno := testenv.SignIn(t, f.db, "bruno@prode.test", "Bruno", false)

	for _, attack := range []struct {
		name   string
		as     func(*http.Request)
		status int
	}{
		{"Ana's ended cookie", testenv.As(ended), 401},
		{"Bruno's live session on Ana's path", testenv.As(bruno), 403},
	} {
		counts := map[int]int{}
		for i := 0; i < 30; i++ {
			res := f.api.Do("POST", path(ana), body(f.match, 9, 9, ana.Email), attack.as)
			counts[res.Status]++
		}
		if counts[attack.status] != 20 || counts[429] != 10 {
			t.Fatalf("%s, 30 writes: %v, want 20 × %d then 10 × 429", attack.name, counts, attack.status)
		}
	}
	if rows, _, _ := f.stored(ana, f.match); rows != 0 {
		t.Fatal("a refused write was stored")
	}
	for i := 0; i < 20; i++ {
		if res := f.api.Do("POST", path(ana), body(f.match, i%10, 0, ana.Email), testenv.As(ana)); res.Status != 200 && res.Status != 201 {
			t.Fatalf("Ana's live session, save %d: %d %s", i+1, res.Status, res.Body)
		}
	}
	if res := f.api.Do("POST", path(ana), body(f.match, 1, 1, ana.Email), testenv.As(ana)); res.Status != 429 {
		t.Fatalf("Ana past her own burst: %d %s", res.Status, res.Body)
	}
}

// The owner is the session's address exactly, normalized only by trimming and ASCII case:
// neither the path nor the body's "jugador" may name it with the long s 'ſ' (which
// strings.EqualFold took for 's') or the Kelvin sign 'K' (U+212A, for 'k').
func TestOwnerComparesAddressesExactly(t *testing.T) {
	f := newFixture(t)
	sofia := testenv.SignIn(t, f.db, "sofia@prode.test", "Sofía", false)
	kim := testenv.SignIn(t, f.db, "kim@prode.test", "Kim", false)
	for _, c := range []struct {
		name, method, url string
		body              any
		as                testenv.Player
	}{
		{"read with ſ in the path", "GET", "/api/jugadores/ſofia@prode.test/apuestas", nil, sofia},
		{"save with ſ in the path", "POST", "/api/jugadores/ſofia@prode.test/apuestas", body(f.match, 1, 0, sofia.Email), sofia},
		{"save with ſ in the body", "POST", path(sofia), body(f.match, 1, 0, "ſofia@prode.test"), sofia},
		{"read with the Kelvin sign in the path", "GET", "/api/jugadores/\u212Aim@prode.test/apuestas", nil, kim},
		{"save with the Kelvin sign in the body", "POST", path(kim), body(f.match, 1, 0, "\u212Aim@prode.test"), kim},
	} {
		if res := f.api.Do(c.method, c.url, c.body, testenv.As(c.as)); res.Status != 403 || res.ErrorCode() != "prohibido" {
			t.Errorf("%s: %d %s, want 403 prohibido", c.name, res.Status, res.Body)
		}
	}
	if rows, _, _ := f.stored(sofia, f.match); rows != 0 {
		t.Fatal("a write through a folded address was stored")
	}
	if res := f.api.Do("POST", "/api/jugadores/SOFIA@Prode.Test/apuestas", body(f.match, 1, 0, " sofia@prode.test"), testenv.As(sofia)); res.Status != 201 {
		t.Fatalf("the address in capitals: %d %s", res.Status, res.Body)
	}
}
