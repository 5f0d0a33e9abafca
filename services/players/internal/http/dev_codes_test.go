package http_test

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/testenv"
	playershttp "prode/players/internal/http"
	"prode/players/internal/players"
	"prode/players/internal/store"
)

// craftDevCode builds a dev sign-in code as identity/devprovider.go does, "dev.<payload>.<hex
// MAC>", with the given MAC or, when mac is "", the genuine one under the session key: what an
// attacker who knew the key could mint, to reach the checks after the MAC's.
func craftDevCode(t *testing.T, payload map[string]any, mac string) string {
	t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	body := base64.RawURLEncoding.EncodeToString(raw)
	if mac == "" {
		h := hmac.New(sha256.New, testenv.SessionKey)
		h.Write([]byte("dev-code:" + body))
		mac = hex.EncodeToString(h.Sum(nil))
	}
	return "dev." + body + "." + mac
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// exchange posts a code to POST /api/sesion.
func exchange(s *stack, code string) *testenv.Response {
	return s.api.Do("POST", "/api/sesion", map[string]string{"code": code})
}

// refusedAsBadCredential: 401 credencial_invalida and no cookie.
func refusedAsBadCredential(t *testing.T, what string, res *testenv.Response) {
	t.Helper()
	if res.Status != 401 || res.ErrorCode() != "credencial_invalida" || res.Header.Get("Set-Cookie") != "" {
		t.Fatalf("%s: %d %s %v, want 401 credencial_invalida without a cookie", what, res.Status, res.Body, res.Header)
	}
}

// Dev sign-in codes are single-use, as Google's: across two replicas on one database, a code
// signs in once; again, on either replica, it is refused with 401 credencial_invalida and no
// cookie, also when both replicas get it at the same moment; a fresh code for the same account
// still works; expired and forged codes are refused and never reach the record of used codes,
// so a forgery does not use up the genuine code it was made from.
func TestDevCodesAreExchangedOnce(t *testing.T) {
	db := testenv.NewDB(t)
	a, b := newDevStackOn(t, db), newDevStackOn(t, db)
	ana := url.Values{"cuenta": {"0"}}

	code := devCode(t, a, ana)
	first := exchange(a, code)
	var j players.Jugador
	first.Decode(t, &j)
	if first.Status != 200 || j.Email != "ana@prode.test" {
		t.Fatalf("first exchange: %d %s", first.Status, first.Body)
	}
	cookie := sessionCookie(t, first)
	refusedAsBadCredential(t, "the same code again", exchange(a, code))
	refusedAsBadCredential(t, "the same code on the other replica", exchange(b, code))
	if res := a.api.Do("GET", "/api/sesion", nil, testenv.WithCookie(cookie)); res.Status != 200 {
		t.Fatalf("the first session after the replays: %d", res.Status)
	}

	again := exchange(b, devCode(t, b, ana))
	var j2 players.Jugador
	again.Decode(t, &j2)
	if again.Status != 200 || j2.ID != j.ID || sessionCookie(t, again).Value == cookie.Value {
		t.Fatalf("a fresh code for the same account: %d %s", again.Status, again.Body)
	}

	// Eight requests with one code, on both replicas at once: exactly one signs in.
	raced := devCode(t, a, ana)
	answers := make([]*testenv.Response, 8)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = exchange([]*stack{a, b}[i%2], raced)
		}()
	}
	wg.Wait()
	won := 0
	for i, res := range answers {
		if res.Status == 200 {
			won++
			continue
		}
		refusedAsBadCredential(t, "a racing replay", answers[i])
	}
	if won != 1 {
		t.Fatalf("%d of 8 simultaneous exchanges of one code signed in, want 1", won)
	}

	// Refused before the record: an expired code with a genuine MAC, forged MACs, a genuine
	// code of before nonces. The fresh code the forgeries start from still works afterwards.
	fresh := devCode(t, a, ana)
	parts := strings.Split(fresh, ".")
	var claims map[string]any
	raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if err := json.Unmarshal(raw, &claims); err != nil || claims["nonce"] == nil {
		t.Fatalf("the code's payload %s has no nonce (%v)", raw, err)
	}
	eve := map[string]any{"email": "eve@example.com", "nombre": "Eve", "exp": claims["exp"], "nonce": randomHex(16)}
	changed := []byte(parts[2])
	if changed[0] == '0' {
		changed[0] = '1'
	} else {
		changed[0] = '0'
	}
	for what, forged := range map[string]string{
		"an expired code":                   craftDevCode(t, map[string]any{"email": "ana@prode.test", "nombre": "Ana Gómez", "exp": time.Now().Add(-time.Second).Unix(), "nonce": randomHex(16)}, ""),
		"a code for Eve with a made-up MAC": craftDevCode(t, eve, randomHex(32)),
		"a code for Eve under Ana's MAC":    craftDevCode(t, eve, parts[2]),
		"Ana's code with its MAC changed":   parts[0] + "." + parts[1] + "." + string(changed),
		"a genuine code without a nonce":    craftDevCode(t, map[string]any{"email": "ana@prode.test", "nombre": "Ana Gómez", "exp": claims["exp"]}, ""),
	} {
		refusedAsBadCredential(t, what, exchange(b, forged))
	}
	if res := exchange(b, fresh); res.Status != 200 {
		t.Fatalf("the code the forgeries were made from: %d %s", res.Status, res.Body)
	}

	var registered, recorded int
	admin := db.AdminPool(t)
	_ = admin.QueryRow(context.Background(), `SELECT count(*) FROM players.jugadores`).Scan(&registered)
	_ = admin.QueryRow(context.Background(), `SELECT count(*) FROM players.codigos_dev_usados`).Scan(&recorded)
	if registered != 1 || recorded != 4 {
		t.Fatalf("%d players registered (want Ana only), %d codes recorded (want the 4 accepted)", registered, recorded)
	}
}

// With PostgreSQL away the exchange answers 503 servicio_no_disponible, never a session, and the
// code is not used up: once the database is back (here: another replica), it signs in.
func TestDevCodeExchangeDuringDatabaseOutage(t *testing.T) {
	db := testenv.NewDB(t)
	// Nothing listens on port 1: every query fails to connect, as during an outage.
	down, err := pgxpool.New(context.Background(), "postgres://prode_players@127.0.0.1:1/prode?sslmode=disable&connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(down.Close)
	dev, verifier := newDevProvider(t, store.New(down))
	cut := newStack(t, db, dev, verifier, playershttp.Provider{Modo: "dev"}, &playershttp.DevHandlers{Provider: dev})

	code := devCode(t, cut, url.Values{"cuenta": {"1"}})
	res := exchange(cut, code)
	if res.Status != 503 || res.ErrorCode() != "servicio_no_disponible" || res.Header.Get("Set-Cookie") != "" {
		t.Fatalf("exchange with the database away: %d %s %v", res.Status, res.Body, res.Header)
	}
	var registered int
	_ = db.AdminPool(t).QueryRow(context.Background(), `SELECT count(*) FROM players.jugadores`).Scan(&registered)
	if registered != 0 {
		t.Fatalf("%d players registered during the outage", registered)
	}
	if res := exchange(newDevStackOn(t, db), code); res.Status != 200 {
		t.Fatalf("the same code with the database back: %d %s", res.Status, res.Body)
	}
}
