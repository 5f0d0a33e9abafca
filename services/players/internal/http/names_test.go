package http_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"prode/platform/testenv"
	"prode/players/internal/identity"
	"prode/players/internal/players"
)

// signedIn signs a new account in through the dev chooser and returns its session.
func signedIn(t *testing.T, s *stack, nombre, email string) func(*http.Request) {
	t.Helper()
	res := devSignIn(t, s, url.Values{"nombre": {nombre}, "email": {email}})
	if res.Status != 200 {
		t.Fatalf("sign in %s: %d %s", email, res.Status, res.Body)
	}
	return testenv.WithCookie(sessionCookie(t, res))
}

// storedName reads a player's name straight from the database.
func storedName(t *testing.T, s *stack, email string) string {
	t.Helper()
	var nombre string
	if err := s.db.AdminPool(t).QueryRow(context.Background(), `SELECT nombre FROM players.jugadores WHERE email = $1`, email).Scan(&nombre); err != nil {
		t.Fatal(err)
	}
	return nombre
}

func rename(s *stack, nombre, email string, opts ...func(*http.Request)) *testenv.Response {
	return s.api.Do("POST", "/api/jugadores", map[string]string{"nombre": nombre, "email": email}, opts...)
}

// A display name is visible text: NUL (which PostgreSQL refuses in text, so it answered 500)
// and every other control, format or invisible character, Zalgo marks, more than 100
// characters and names without a letter are refused with 400 datos_invalidos in the
// contract's shape and a Spanish message, and change nothing. Surrounding spaces go, and a
// name typed with decomposed accents is stored composed.
func TestDisplayNamesAreVisibleText(t *testing.T) {
	s := newDevStack(t)
	as := signedIn(t, s, "Dolores", "dolores@example.com")
	for name, nombre := range map[string]string{
		"NUL":                    "Dolores\x00",
		"only NUL":               "\x00",
		"bell":                   "Do\alores",
		"line break inside":      "Dolo\nres",
		"tab inside":             "Dolo\tres",
		"DEL":                    "Dolores\x7f",
		"C1 control":             "Dolores\u0085x",
		"right-to-left override": "\u202Eserolod",
		"left-to-right embed":    "\u202ADolores",
		"isolate":                "Dolo\u2066res\u2069",
		"zero-width space":       "Do\u200Blores",
		"zero-width joiner":      "Do\u200Dlores",
		"right-to-left mark":     "Dolores\u200F",
		"byte order mark":        "\uFEFFDolores",
		"soft hyphen":            "Dolo\u00ADres",
		"line separator":         "Dolo\u2028res",
		"Hangul filler":          "\u3164",
		"blank Braille":          "\u2800\u2800",
		"private use":            "Dolores\uE000",
		"Zalgo":                  "Do" + strings.Repeat("\u0301", 8) + "lores",
		"101 characters":         strings.Repeat("ñ", 101),
		"spaces":                 "   ",
		"punctuation only":       "...",
		"empty":                  "",
	} {
		t.Run(name, func(t *testing.T) {
			res := rename(s, nombre, "dolores@example.com", as)
			if !res.Refuses(400, "datos_invalidos") {
				t.Fatalf("%q: %d %s, want 400 datos_invalidos", nombre, res.Status, res.Body)
			}
			if got := storedName(t, s, "dolores@example.com"); got != "Dolores" {
				t.Fatalf("a refused name was stored: %q", got)
			}
		})
	}
	for nombre, stored := range map[string]string{
		"  Lola Pérez \t":          "Lola Pérez",
		"Jose\u0301":               "José",
		"Lola ⚽❤️":                 "Lola ⚽❤️",
		strings.Repeat("ñ", 100):   strings.Repeat("ñ", 100),
		"Nguyễn Thị Minh Khai":     "Nguyễn Thị Minh Khai",
		"محمد":                     "محمد",
		"Ana-María O'Neill (Lola)": "Ana-María O'Neill (Lola)",
	} {
		res := rename(s, nombre, "dolores@example.com", as)
		var j players.Jugador
		res.Decode(t, &j)
		if res.Status != 200 || j.Nombre != stored || storedName(t, s, "dolores@example.com") != stored {
			t.Fatalf("%q: %d %s, want %q stored", nombre, res.Status, res.Body, stored)
		}
	}
}

// A player's name cannot pass for the organisers': a role word anywhere in it, "Prode" alone,
// or an organiser's own display name, however it is dressed (case, accents, spaces,
// punctuation, fullwidth or look-alike letters, digits for letters). The organisers themselves
// may use any of them, and other names are untouched.
func TestNamesThatImitateTheOrganisersAreRefused(t *testing.T) {
	s := newDevStack(t)
	admin := strconv.Itoa(len(identity.DevAccounts) - 1) // the demo organiser, admin@prode.test
	res := devSignIn(t, s, url.Values{"cuenta": {admin}})
	if res.Status != 200 {
		t.Fatalf("organiser: %d %s", res.Status, res.Body)
	}
	organiser := testenv.WithCookie(sessionCookie(t, res))
	if res := rename(s, "Lucía Fernández", "admin@prode.test", organiser); res.Status != 200 {
		t.Fatalf("the organiser names herself: %d %s", res.Status, res.Body)
	}
	as := signedIn(t, s, "Dolores", "dolores@example.com")
	for _, nombre := range []string{
		"Organizador", "organizadora", "ORGANIZACIÓN", "El Organizador Oficial", "Admin", "admin 2", "Ádmín",
		"A.d.m.i.n", "adm1n", "Ａｄｍｉｎ", "\u0410dmin" /* Cyrillic А */, "ᴀᴅᴍɪɴ", "Administrador", "Moderadora",
		"Prode", "P R O D E", "Prode Oficial", "lucia fernandez", "Lucía  Fernández.", "LUCIA FERNANDEZ",
	} {
		res := rename(s, nombre, "dolores@example.com", as)
		if res.Status != 400 || res.ErrorCode() != "datos_invalidos" || !strings.Contains(string(res.Body), "organización") {
			t.Errorf("%q: %d %s, want 400 datos_invalidos", nombre, res.Status, res.Body)
		}
	}
	if got := storedName(t, s, "dolores@example.com"); got != "Dolores" {
		t.Fatalf("an imitating name was stored: %q", got)
	}
	for _, nombre := range []string{"Juan del Prode", "Lucía Fernández Gómez", "Dolores Organista"} {
		if res := rename(s, nombre, "dolores@example.com", as); res.Status != 200 {
			t.Errorf("%q: %d %s, want it accepted", nombre, res.Status, res.Body)
		}
	}
	if res := rename(s, "Organizadora", "admin@prode.test", organiser); res.Status != 200 {
		t.Fatalf("the organiser as Organizadora: %d %s", res.Status, res.Body)
	}
}

// Renames are limited per player: past the burst a change answers 429 with Retry-After in the
// contract's shape and changes nothing, whatever X-Forwarded-For the client sends; sending the
// current name (the web app does it after every sign-in) is never refused nor counted;
// another player is unaffected; the allowance comes back with time. Without the limit, 60
// renames in a tenth of a second all passed.
func TestRenamesAreRateLimitedPerPlayer(t *testing.T) {
	renames, clock := stoppedLimiter(5.0/60, 3) // 5/min, burst 3
	s := newLimitedDevStackOn(t, testenv.NewDB(t), limits{renames: renames})
	dolores := signedIn(t, s, "Dolores", "dolores@example.com")
	bruno := signedIn(t, s, "Bruno", "bruno@example.com")
	from := func(ip string) func(*http.Request) { return testenv.WithHeader("X-Forwarded-For", ip) }

	for i, nombre := range []string{"Lola", "Loli", "Lolita"} {
		if res := rename(s, nombre, "dolores@example.com", dolores, from("203.0.113.7")); res.Status != 200 {
			t.Fatalf("rename %d within the burst: %d %s", i+1, res.Status, res.Body)
		}
	}
	for i := 0; i < 20; i++ {
		if res := rename(s, "Lolita", "dolores@example.com", dolores); res.Status != 200 {
			t.Fatalf("the current name again (%d): %d %s", i+1, res.Status, res.Body)
		}
	}
	for _, forged := range []string{"198.51.100.1", "10.0.0.1, 203.0.113.7", "2001:db8::1"} {
		res := rename(s, "Dolo", "dolores@example.com", dolores, from(forged))
		if res.Status != 429 || res.ErrorCode() != "demasiadas_solicitudes" || res.Header.Get("Retry-After") != "12" {
			t.Fatalf("a rename past the burst, X-Forwarded-For %s: %d %v %s", forged, res.Status, res.Header, res.Body)
		}
	}
	if got := storedName(t, s, "dolores@example.com"); got != "Lolita" {
		t.Fatalf("a refused rename was stored: %q", got)
	}
	if res := rename(s, "Bruno Díaz", "bruno@example.com", bruno); res.Status != 200 {
		t.Fatalf("another player: %d %s", res.Status, res.Body)
	}
	*clock = clock.Add(12 * time.Second)
	if res := rename(s, "Dolo", "dolores@example.com", dolores); res.Status != 200 {
		t.Fatalf("after Retry-After: %d %s", res.Status, res.Body)
	}
	if res := rename(s, "Dola", "dolores@example.com", dolores); res.Status != 429 {
		t.Fatalf("a second one after Retry-After: %d %s", res.Status, res.Body)
	}
}
