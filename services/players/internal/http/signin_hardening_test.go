package http_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"prode/platform/session"
	"prode/platform/testenv"
	"prode/players/internal/displayname"
	"prode/players/internal/identity"
	"prode/players/internal/players"
)

// A sign-in never fails over the name Google has for the account: control and invisible
// characters go (NUL answered 500), a long name is cut, and a name that would pass for the
// organisers' (or has nothing left) gives way to the address's local part. An organiser keeps
// hers.
func TestSignInCleansGooglesName(t *testing.T) {
	keys, err := identity.NewKeySet("test-key")
	if err != nil {
		t.Fatal(err)
	}
	var idToken string
	s := googleStack(t, keys, &idToken)
	for i, c := range []struct{ email, name, want string }{
		{"ana@example.com", "\u202EAna\x00 G\u200Bómez\n\tde\u2066 la Torre", "Ana Gómez de la Torre"},
		{"bea@example.com", strings.Repeat("Bea", 60), strings.Repeat("Bea", 33) + "B"},
		{"carla@example.com", "Admin", "carla"},
		{"dora@example.com", "Organizadora Oficial", "dora"},
		{"elsa@example.com", "\u200B\u3164", "elsa"},
		{"administracion@example.com", "ADMIN", "Jugador"},
		{"kim@example.com", "Organizadora", "Organizadora"}, // an organiser (ADMIN_EMAILS)
	} {
		res, j := googleSignIn(t, s, keys, &idToken, func(m map[string]any) {
			m["email"], m["name"], m["sub"] = c.email, c.name, "sub-"+c.email
		})
		if res.Status != 200 || j.Nombre != c.want {
			t.Fatalf("sign-in %d (%q): %d %s, want the name %q", i+1, c.name, res.Status, res.Body, c.want)
		}
		if _, err := displayname.Check(j.Nombre); err != nil || utf8.RuneCountInString(j.Nombre) > displayname.MaxRunes {
			t.Fatalf("sign-in %d stored a name a player could not type: %q (%v)", i+1, j.Nombre, err)
		}
		// The web app posts the name it was given right after signing in: it must pass.
		if res := s.api.Do("POST", "/api/jugadores", map[string]string{"nombre": j.Nombre, "email": c.email},
			testenv.WithCookie(sessionCookie(t, res))); res.Status != 200 {
			t.Fatalf("sign-in %d: registering the name it gave: %d %s", i+1, res.Status, res.Body)
		}
	}
}

// The dev chooser's "use another account" refuses an invisible or control character in the
// name or the address with its page and a 400 (no code to sign in with), instead of handing out
// a code whose sign-in answered 500; a code carrying such a name anyway signs in with the name
// cleaned.
func TestDevChooserRefusesInvisibleNames(t *testing.T) {
	s := newDevStack(t)
	for _, c := range []struct{ nombre, email, says string }{
		{"Eve\x00", "eve@example.com", "El nombre"},
		{"\u202EevE", "eve@example.com", "El nombre"},
		{"Eve\u200B", "eve@example.com", "El nombre"},
		{"\x00", "eve@example.com", "El nombre"},
		{"Eve\xff", "eve@example.com", "El nombre"},
		{"Eve", "e\u0085ve@example.com", "correo"},
		{"Eve", "e\u202Eve@example.com", "correo"},
		{"Eve", "eve\x00@example.com", "correo"},
	} {
		form := url.Values{"nombre": {c.nombre}, "email": {c.email}}.Encode()
		res := s.api.Do("POST", "/api/sesion/dev", nil, func(r *http.Request) {
			r.Body = io.NopCloser(strings.NewReader(form))
			r.ContentLength = int64(len(form))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		})
		if res.Status != 400 || strings.Contains(string(res.Body), "data-code") || !strings.Contains(string(res.Body), c.says) {
			t.Fatalf("chooser with %q, %q: %d %s", c.nombre, c.email, res.Status, res.Body)
		}
	}
	code := craftDevCode(t, map[string]any{"email": "eve@example.com", "nombre": "\u202EEve\x00", "exp": time.Now().Add(time.Minute).Unix(), "nonce": randomHex(16)}, "")
	res := exchange(s, code)
	var j players.Jugador
	res.Decode(t, &j)
	if res.Status != 200 || j.Nombre != "Eve" {
		t.Fatalf("a code whose name has NUL and an override: %d %s", res.Status, res.Body)
	}
}

// Identities compare by the exact address, normalized only by trimming and ASCII case: the
// long s 'ſ' (which strings.EqualFold took for 's') and the Kelvin sign 'K' (which
// strings.ToLower turned into 'k') name other addresses. A Google account whose address is
// written with the Kelvin sign is another player, never the organiser kim@example.com.
func TestIdentitiesCompareByTheExactAddress(t *testing.T) {
	s := newDevStack(t)
	sofia := signedIn(t, s, "Sofía", "sofia@example.com")
	if res := rename(s, "Sofi", "ſofia@example.com", sofia); res.Status != 403 || res.ErrorCode() != "prohibido" {
		t.Fatalf("registering with ſ for s: %d %s", res.Status, res.Body)
	}
	if res := rename(s, "Sofi", " SOFIA@Example.com ", sofia); res.Status != 200 {
		t.Fatalf("registering in capitals: %d %s", res.Status, res.Body)
	}

	keys, err := identity.NewKeySet("test-key")
	if err != nil {
		t.Fatal(err)
	}
	var idToken string
	g := googleStack(t, keys, &idToken)
	signIn := func(email, sub string) players.Jugador {
		t.Helper()
		res, j := googleSignIn(t, g, keys, &idToken, func(m map[string]any) { m["email"], m["sub"], m["name"] = email, sub, "Kim" })
		if res.Status != 200 {
			t.Fatalf("sign in %q: %d %s", email, res.Status, res.Body)
		}
		return j
	}
	kim := signIn("kim@example.com", "sub-kim")
	kelvin := signIn("\u212Aim@example.com", "sub-kelvin")
	if !kim.Admin || kelvin.ID == kim.ID || kelvin.Admin || kelvin.Email == kim.Email {
		t.Fatalf("kim %+v, the Kelvin-sign address %+v: want two players, only kim an organiser", kim, kelvin)
	}
	var sub string
	_ = g.db.AdminPool(t).QueryRow(context.Background(), `SELECT google_sub FROM players.jugadores WHERE id = $1`, kim.ID).Scan(&sub)
	if sub != "sub-kim" {
		t.Fatalf("kim's account now belongs to Google subject %q", sub)
	}
}

// Sessions slide while in use: GET /api/sesion (the web app asks on every load) renews a
// session with less than half of SESSION_TTL left to a full one, with a new cookie, and leaves
// a fresh one alone; a session ended with 'Salir' is never renewed.
func TestSessionsSlideWhileInUse(t *testing.T) {
	s := newDevStack(t)
	res := devSignIn(t, s, url.Values{"cuenta": {"0"}})
	fresh := sessionCookie(t, res)
	if res := s.api.Do("GET", "/api/sesion", nil, testenv.WithCookie(fresh)); res.Status != 200 || res.Header.Get("Set-Cookie") != "" {
		t.Fatalf("a fresh session: %d %v", res.Status, res.Header)
	}

	// The same session ten minutes before it expires, as it would be 50 minutes later.
	c, err := session.Parse(testenv.SessionKey, fresh.Value, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	soon := time.Now().Add(10 * time.Minute)
	admin := s.db.AdminPool(t)
	if _, err := admin.Exec(context.Background(), `UPDATE players.sesiones SET expira = $2 WHERE id = $1`, c.SessionID, soon); err != nil {
		t.Fatal(err)
	}
	c.Expires = soon.Unix()
	old, err := session.Sign(testenv.SessionKey, c)
	if err != nil {
		t.Fatal(err)
	}
	oldCookie := &http.Cookie{Name: session.CookieName, Value: old}
	res = s.api.Do("GET", "/api/sesion", nil, testenv.WithCookie(oldCookie))
	if res.Status != 200 {
		t.Fatalf("a session about to expire: %d %s", res.Status, res.Body)
	}
	renewed := sessionCookie(t, res)
	rc, err := session.Parse(testenv.SessionKey, renewed.Value, time.Now())
	if err != nil || rc.SessionID != c.SessionID || time.Until(time.Unix(rc.Expires, 0)) < sessionTTL-time.Minute {
		t.Fatalf("renewed token %+v (%v): want the same session for a full %v", rc, err, sessionTTL)
	}
	var expira time.Time
	_ = admin.QueryRow(context.Background(), `SELECT expira FROM players.sesiones WHERE id = $1`, c.SessionID).Scan(&expira)
	if time.Until(expira) < sessionTTL-time.Minute {
		t.Fatalf("the session still expires at %v", expira)
	}
	if res := s.api.Do("GET", "/api/sesion", nil, testenv.WithCookie(renewed)); res.Status != 200 || res.Header.Get("Set-Cookie") != "" {
		t.Fatalf("the renewed session: %d %v", res.Status, res.Header)
	}

	if res := s.api.Do("DELETE", "/api/sesion", nil, testenv.WithCookie(renewed)); res.Status != 204 {
		t.Fatalf("Salir: %d", res.Status)
	}
	for _, cookie := range []*http.Cookie{renewed, oldCookie, fresh} {
		if res := s.api.Do("GET", "/api/sesion", nil, testenv.WithCookie(cookie)); res.Status != 401 || res.Header.Get("Set-Cookie") != "" {
			t.Fatalf("after Salir: %d %v", res.Status, res.Header)
		}
	}
}

// The sign-in limit keys an IPv6 client by its /64 (one subscriber's prefix, whose 2^64
// addresses used to be 2^64 buckets) and an IPv4 client by its address, IPv4-mapped IPv6
// included; X-Forwarded-For entries the client writes itself change nothing.
func TestSignInLimitKeysIPv6ByItsPrefix(t *testing.T) {
	limit, _ := stoppedLimiter(10.0/60, 2) // 10/min, burst 2
	s := newLimitedDevStackOn(t, testenv.NewDB(t), limits{signIn: limit})
	choose := func(xff string) int {
		body := url.Values{"cuenta": {"0"}}.Encode()
		return s.api.Do("POST", "/api/sesion/dev", nil, func(r *http.Request) {
			r.Body = io.NopCloser(strings.NewReader(body))
			r.ContentLength = int64(len(body))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("X-Forwarded-For", xff)
		}).Status
	}
	for i, c := range []struct {
		xff  string
		want int
	}{
		{"2001:db8:1:2::1", 200},
		{"2001:db8:1:2:ffff:ffff:ffff:fffe", 200},
		{"2001:db8:1:2::abcd", 429},                  // a third address of the same /64
		{"2001:db8:9::1, 2001:db8:1:2::5", 429},      // forging a first hop
		{"198.51.100.7, 2001:db8:1:2:0:0:0:99", 429}, // forging an IPv4 first hop
		{"2001:db8:1:3::1", 200},                     // the next /64 is someone else
		{"::ffff:203.0.113.9", 200},                  // IPv4-mapped: the IPv4 address
		{"203.0.113.9", 200},                         // the same address, its bucket's last
		{"::ffff:203.0.113.9", 429},                  // and it is empty
		{"203.0.113.10", 200},                        // the next IPv4 address is someone else
		{"2001:db8:1:2::1, 203.0.113.10", 200},       // forging an IPv6 first hop
	} {
		if got := choose(c.xff); got != c.want {
			t.Fatalf("attempt %d, X-Forwarded-For %q: %d, want %d", i+1, c.xff, got, c.want)
		}
	}
}
