package http_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"prode/platform/httpserver"
	"prode/platform/ratelimit"
	"prode/platform/session"
	"prode/platform/testenv"
	"prode/players/internal/app"
	playershttp "prode/players/internal/http"
	"prode/players/internal/identity"
	"prode/players/internal/players"
	"prode/players/internal/store"
)

const clientID = "client-123.apps.googleusercontent.com"

type stack struct {
	db  *testenv.DB
	api *testenv.API
}

// organisers are the test stacks' ADMIN_EMAILS: the dev chooser's demo organiser, and an
// address with a K for the Kelvin-sign tests.
var organisers = session.NewAdmins([]string{"admin@prode.test", "kim@example.com"})

// sessionTTL is the test stacks' SESSION_TTL.
const sessionTTL = time.Hour

func newStack(t *testing.T, db *testenv.DB, ex players.Exchanger, v players.Verifier, provider playershttp.Provider, dev *playershttp.DevHandlers) *stack {
	t.Helper()
	return newLimitedStack(t, db, ex, v, provider, dev, limits{})
}

// limits are a test stack's rate limits; nil ones are off.
type limits struct {
	signIn  *ratelimit.Limiter // per client address
	renames *ratelimit.Limiter // per player
	shared  *ratelimit.Shared  // where replicas share them; nil: in the stack's process
}

func newLimitedStack(t *testing.T, db *testenv.DB, ex players.Exchanger, v players.Verifier, provider playershttp.Provider, dev *playershttp.DevHandlers, l limits) *stack {
	t.Helper()
	pool := db.Pool(t, "players")
	// One trusted proxy, as behind the ingress (TRUSTED_PROXY_HOPS' default).
	server := httpserver.New(httpserver.Config{Service: "players", TrustedProxyHops: 1}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	app.Wire(server, app.Deps{
		Pool: pool, Sessions: session.NewVerifier(testenv.SessionKey, pool),
		SessionKey: testenv.SessionKey, SessionTTL: sessionTTL, Admins: organisers,
		Exchanger: ex, Verifier: v, Provider: provider, Dev: dev,
		SignInLimit: l.signIn, RenameLimit: l.renames, Limits: l.shared,
	})
	return &stack{db: db, api: testenv.NewAPI(t, server.Engine)}
}

func sessionCookie(t *testing.T, res *testenv.Response) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == session.CookieName && c.Value != "" {
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
				t.Fatalf("session cookie must be HttpOnly and SameSite=Lax: %+v", c)
			}
			return c
		}
	}
	t.Fatalf("no session cookie in %v", res.Header)
	return nil
}

// googleStack runs the Google path offline: a local token endpoint answers the code exchange
// with the ID token the test chose, and idtoken fetches the test key set.
func googleStack(t *testing.T, keys *identity.KeySet, idToken *string) *stack {
	t.Helper()
	tokenEndpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.Form.Get("code") != "good-code" || r.Form.Get("redirect_uri") != "postmessage" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "at", "token_type": "Bearer", "expires_in": 3600, "id_token": *idToken})
	}))
	t.Cleanup(tokenEndpoint.Close)
	endpoint := identity.GoogleEndpoint
	endpoint.TokenURL = tokenEndpoint.URL
	verifier, err := identity.NewVerifier(context.Background(), clientID, keys.Client())
	if err != nil {
		t.Fatal(err)
	}
	return newStack(t, testenv.NewDB(t), identity.NewGoogleExchanger(clientID, "secret", endpoint), verifier,
		playershttp.Provider{Modo: "google", ClientID: clientID}, nil)
}

// googleSignIn signs in to s, a googleStack that hands out *idToken, with an ID token that
// keys signs of the claims mutate changes; it returns the answer and the player it names.
func googleSignIn(t *testing.T, s *stack, keys *identity.KeySet, idToken *string, mutate func(map[string]any)) (*testenv.Response, players.Jugador) {
	t.Helper()
	tok, err := keys.Sign(claims(mutate))
	if err != nil {
		t.Fatal(err)
	}
	*idToken = tok
	res := s.api.Do("POST", "/api/sesion", map[string]string{"code": "good-code"})
	var j players.Jugador
	res.Decode(t, &j)
	return res, j
}

func claims(mutate func(map[string]any)) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": "https://accounts.google.com", "aud": clientID, "sub": "10769150350006150715113082367",
		"email": "Ana@Example.com", "email_verified": true, "name": "Ana Gómez",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
	if mutate != nil {
		mutate(c)
	}
	return c
}

func TestGoogleSignInVerifiesTheIDToken(t *testing.T) {
	keys, err := identity.NewKeySet("test-key")
	if err != nil {
		t.Fatal(err)
	}
	forger, _ := identity.NewKeySet("test-key") // same key id, different key
	var idToken string
	s := googleStack(t, keys, &idToken)
	sign := func(k *identity.KeySet, c map[string]any) string {
		tok, err := k.Sign(c)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}

	refused := map[string]string{
		"forged":          sign(forger, claims(nil)),
		"expired":         sign(keys, claims(func(c map[string]any) { c["exp"] = time.Now().Add(-time.Minute).Unix() })),
		"other audience":  sign(keys, claims(func(c map[string]any) { c["aud"] = "someone-else.apps.googleusercontent.com" })),
		"other issuer":    sign(keys, claims(func(c map[string]any) { c["iss"] = "https://evil.example" })),
		"unverified mail": sign(keys, claims(func(c map[string]any) { c["email_verified"] = false })),
		"not a JWT":       "not-a-jwt",
	}
	for name, tok := range refused {
		t.Run(name, func(t *testing.T) {
			idToken = tok
			res := s.api.Do("POST", "/api/sesion", map[string]string{"code": "good-code"})
			if res.Status != 401 || res.ErrorCode() != "credencial_invalida" || res.Header.Get("Set-Cookie") != "" {
				t.Fatalf("%d %s %v", res.Status, res.Body, res.Header)
			}
		})
	}
	var registered int
	_ = s.db.AdminPool(t).QueryRow(context.Background(), `SELECT count(*) FROM players.jugadores`).Scan(&registered)
	if registered != 0 {
		t.Fatalf("refused sign-ins registered %d players", registered)
	}

	idToken = sign(keys, claims(nil))
	if res := s.api.Do("POST", "/api/sesion", map[string]string{"code": "bad-code"}); res.Status != 401 {
		t.Fatalf("a code Google refuses: %d %s", res.Status, res.Body)
	}
	res := s.api.Do("POST", "/api/sesion", map[string]string{"code": "good-code"})
	var j players.Jugador
	res.Decode(t, &j)
	if res.Status != 200 || j.Email != "ana@example.com" || j.Nombre != "Ana Gómez" || j.Admin {
		t.Fatalf("valid token: %d %s", res.Status, res.Body)
	}
	cookie := sessionCookie(t, res)
	if res := s.api.Do("GET", "/api/sesion", nil, testenv.WithCookie(cookie)); res.Status != 200 {
		t.Fatalf("session after sign-in: %d", res.Status)
	}
}

// devSignIn walks the dev chooser as the popup does and returns the sign-in answer.
func devSignIn(t *testing.T, s *stack, form url.Values) *testenv.Response {
	t.Helper()
	return s.api.Do("POST", "/api/sesion", map[string]string{"code": devCode(t, s, form)})
}

// devCode walks the dev chooser as the popup does and returns the code it hands the app.
func devCode(t *testing.T, s *stack, form url.Values) string {
	t.Helper()
	page := s.api.Do("GET", "/api/sesion/dev", nil)
	if page.Status != 200 || !strings.Contains(string(page.Body), "Usar otra cuenta") || page.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("chooser: %d %s", page.Status, page.Body)
	}
	done := s.api.Do("POST", "/api/sesion/dev", nil, func(r *http.Request) {
		r.Body = io.NopCloser(strings.NewReader(form.Encode()))
		r.ContentLength = int64(len(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	})
	m := regexp.MustCompile(`data-code="([^"]+)"`).FindSubmatch(done.Body)
	if done.Status != 200 || m == nil {
		t.Fatalf("chooser answer: %d %s", done.Status, done.Body)
	}
	return string(m[1])
}

// newDevProvider is the dev provider and its verifier, as main wires them, recording the
// exchanged codes through used (the store, on the test's database).
func newDevProvider(t *testing.T, used identity.UsedCodes) (*identity.DevProvider, *identity.Verifier) {
	t.Helper()
	dev, err := identity.NewDevProvider(testenv.SessionKey, used)
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := identity.NewVerifier(context.Background(), identity.DevAudience, dev.Keys().Client())
	if err != nil {
		t.Fatal(err)
	}
	return dev, verifier
}

func newDevStack(t *testing.T) *stack {
	t.Helper()
	return newDevStackOn(t, testenv.NewDB(t))
}

// newDevStackOn is a players replica in dev mode on db; two of them on one database are two
// replicas.
func newDevStackOn(t *testing.T, db *testenv.DB) *stack {
	t.Helper()
	return newLimitedDevStackOn(t, db, limits{})
}

// newLimitedDevStackOn is newDevStackOn with the rate limits l.
func newLimitedDevStackOn(t *testing.T, db *testenv.DB, l limits) *stack {
	t.Helper()
	dev, verifier := newDevProvider(t, store.New(db.Pool(t, "players")))
	return newLimitedStack(t, db, dev, verifier, playershttp.Provider{Modo: "dev"}, &playershttp.DevHandlers{Provider: dev}, l)
}

// stoppedLimiter is a rate limiter of rate tokens a second and burst whose clock stands still
// at *clock until the test moves it.
func stoppedLimiter(rate float64, burst int) (*ratelimit.Limiter, *time.Time) {
	l := ratelimit.New(rate, burst)
	clock := time.Now()
	l.SetClock(func() time.Time { return clock })
	return l, &clock
}

func TestDevSignInRegisterAndSignOut(t *testing.T) {
	s := newDevStack(t)
	if res := s.api.Do("GET", "/api/sesion/proveedor", nil); !strings.Contains(string(res.Body), `"modo":"dev"`) {
		t.Fatalf("provider: %s", res.Body)
	}
	if res := s.api.Do("GET", "/api/sesion", nil); res.Status != 401 {
		t.Fatalf("signed out: %d", res.Status)
	}
	res := devSignIn(t, s, url.Values{"nombre": {"Dolores"}, "email": {"dolores@example.com"}})
	var j players.Jugador
	res.Decode(t, &j)
	if res.Status != 200 || j.Email != "dolores@example.com" || j.Nombre != "Dolores" || j.Admin {
		t.Fatalf("dev sign-in: %d %s", res.Status, res.Body)
	}
	cookie := sessionCookie(t, res)
	as := testenv.WithCookie(cookie)

	// Registration may rename the player, never register someone else.
	if res := s.api.Do("POST", "/api/jugadores", map[string]string{"nombre": "Otro", "email": "ana@prode.test"}, as); res.Status != 403 {
		t.Fatalf("register another e-mail: %d %s", res.Status, res.Body)
	}
	if res := s.api.Do("POST", "/api/jugadores", map[string]string{"nombre": "Lola", "email": "Dolores@example.com"}, as); res.Status != 200 || !strings.Contains(string(res.Body), `"nombre":"Lola"`) {
		t.Fatalf("register: %d %s", res.Status, res.Body)
	}
	if res := s.api.Do("POST", "/api/jugadores", map[string]string{"nombre": "X", "email": "dolores@example.com"}, as,
		testenv.WithHeader("Origin", "https://evil.example")); res.Status != 403 || res.ErrorCode() != "origen_no_permitido" {
		t.Fatalf("cross-site register: %d %s", res.Status, res.Body)
	}
	if res := s.api.Do("GET", "/api/jugadores", nil); res.Status != 308 || res.Header.Get("Location") != "/api/posiciones" {
		t.Fatalf("GET /api/jugadores: %d %v", res.Status, res.Header)
	}
	if res := s.api.Do("GET", "/api/sesion", nil, as); res.Status != 200 || !strings.Contains(string(res.Body), "Lola") {
		t.Fatalf("current player: %d %s", res.Status, res.Body)
	}

	// 'Salir' ends the session server-side: the old cookie is refused afterwards.
	out := s.api.Do("DELETE", "/api/sesion", nil, as)
	if out.Status != 204 || !strings.Contains(out.Header.Get("Set-Cookie"), session.CookieName+"=;") {
		t.Fatalf("sign out: %d %v", out.Status, out.Header)
	}
	if res := s.api.Do("GET", "/api/sesion", nil, as); res.Status != 401 {
		t.Fatalf("replayed cookie after Salir: %d", res.Status)
	}
	if res := s.api.Do("POST", "/api/jugadores", map[string]string{"nombre": "Y", "email": "dolores@example.com"}, as); res.Status != 401 {
		t.Fatalf("replayed cookie after Salir, register: %d", res.Status)
	}
}

func TestDevDemoAdminIsAnOrganiser(t *testing.T) {
	s := newDevStack(t)
	admin := len(identity.DevAccounts) - 1
	res := devSignIn(t, s, url.Values{"cuenta": {string(rune('0' + admin))}})
	if res.Status != 200 || !strings.Contains(string(res.Body), `"admin":true`) {
		t.Fatalf("demo admin: %d %s", res.Status, res.Body)
	}
	if res := s.api.Do("POST", "/api/sesion", map[string]string{"code": "dev.e30.00"}); res.Status != 401 {
		t.Fatalf("forged dev code: %d", res.Status)
	}
}

func TestSignInRefusesBadBodies(t *testing.T) {
	s := newDevStack(t)
	for name, c := range map[string]struct {
		body   string
		ctype  string
		status int
	}{
		"empty code":    {`{"code":""}`, "application/json", 400},
		"unknown field": {`{"code":"x","admin":true}`, "application/json", 400},
		"not JSON":      {`code=x`, "application/x-www-form-urlencoded", 415},
		"too large":     {`{"code":"` + strings.Repeat("x", 17000) + `"}`, "application/json", 413},
	} {
		t.Run(name, func(t *testing.T) {
			res := s.api.Do("POST", "/api/sesion", c.body, testenv.WithHeader("Content-Type", c.ctype))
			if res.Status != c.status {
				t.Fatalf("%d %s", res.Status, res.Body)
			}
		})
	}
}

// Sign-in attempts are limited per client address (the X-Forwarded-For entry that the trusted
// proxy wrote, counted from the right): past the burst both sign-in routes answer 429 with
// Retry-After and a Spanish message, whatever first hops the client forges; other addresses are
// unaffected, and the tokens come back with time.
func TestSignInIsRateLimitedPerAddress(t *testing.T) {
	limit, clock := stoppedLimiter(10.0/60, 3) // 10/min, burst 3
	s := newLimitedDevStackOn(t, testenv.NewDB(t), limits{signIn: limit})
	from := func(ip string) func(*http.Request) { return testenv.WithHeader("X-Forwarded-For", ip) }
	form := func(r *http.Request) {
		body := url.Values{"cuenta": {"0"}}.Encode()
		r.Body = io.NopCloser(strings.NewReader(body))
		r.ContentLength = int64(len(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	// Two chooser posts and one bad code from 203.0.113.7 use its burst of three.
	for i := 0; i < 2; i++ {
		if res := s.api.Do("POST", "/api/sesion/dev", nil, form, from("203.0.113.7")); res.Status != 200 {
			t.Fatalf("chooser %d: %d %s", i, res.Status, res.Body)
		}
	}
	// A client that forges its own first hop, behind a proxy that appends: still 203.0.113.7.
	if res := s.api.Do("POST", "/api/sesion", map[string]string{"code": "dev.e30.00"}, from("10.0.0.1, 203.0.113.7")); res.Status != 401 {
		t.Fatalf("bad code: %d %s", res.Status, res.Body)
	}
	for _, try := range []struct {
		path string
		opts []func(*http.Request)
	}{
		{"/api/sesion", nil},
		{"/api/sesion/dev", []func(*http.Request){form}},
	} {
		var res *testenv.Response
		if try.path == "/api/sesion" {
			res = s.api.Do("POST", try.path, map[string]string{"code": "dev.e30.00"}, from("203.0.113.7"))
		} else {
			res = s.api.Do("POST", try.path, nil, append(try.opts, from("203.0.113.7"))...)
		}
		var body struct {
			Error     string `json:"error"`
			Mensaje   string `json:"mensaje"`
			RequestID string `json:"request_id"`
		}
		res.Decode(t, &body)
		if res.Status != 429 || body.Error != "demasiadas_solicitudes" || !strings.Contains(body.Mensaje, "demasiadas solicitudes") || body.RequestID == "" {
			t.Fatalf("%s past the burst: %d %s", try.path, res.Status, res.Body)
		}
		if ra := res.Header.Get("Retry-After"); ra != "6" { // one token every 6 s
			t.Fatalf("%s Retry-After = %q, want 6", try.path, ra)
		}
	}
	// Forging another first hop does not get a fresh bucket.
	for _, forged := range []string{"198.51.100.2", "10.0.0.1", "2001:db8::7"} {
		if res := s.api.Do("POST", "/api/sesion/dev", nil, form, from(forged+", 203.0.113.7")); res.Status != 429 {
			t.Fatalf("forged first hop %s: %d %s", forged, res.Status, res.Body)
		}
	}
	// Another address is not affected; nor is the same player from the remote address.
	if res := s.api.Do("POST", "/api/sesion/dev", nil, form, from("198.51.100.2")); res.Status != 200 {
		t.Fatalf("another address: %d %s", res.Status, res.Body)
	}
	// Six seconds later one more attempt is allowed, and only one.
	*clock = clock.Add(6 * time.Second)
	if res := s.api.Do("POST", "/api/sesion/dev", nil, form, from("203.0.113.7")); res.Status != 200 {
		t.Fatalf("after Retry-After: %d %s", res.Status, res.Body)
	}
	if res := s.api.Do("POST", "/api/sesion/dev", nil, form, from("203.0.113.7")); res.Status != 429 {
		t.Fatalf("second after Retry-After: %d %s", res.Status, res.Body)
	}
	// Reading the session or the provider is never limited.
	if res := s.api.Do("GET", "/api/sesion/proveedor", nil, from("203.0.113.7")); res.Status != 200 {
		t.Fatalf("provider: %d", res.Status)
	}
}
