package testenv

import (
	"context"
	"crypto/rand"
	"net/http"
	"testing"
	"time"

	"prode/platform/session"
)

// SessionKey is a fixed key for tests.
var SessionKey = []byte("0123456789abcdef0123456789abcdef-test-only")

// Player is a signed-in player of a test.
type Player struct {
	ID     int64
	Email  string
	Nombre string
	Cookie *http.Cookie
}

// SignIn registers a player and opens a session directly in the database, as the players
// service does after verifying Google's token, so other services' tests can act as a player.
func SignIn(t testing.TB, db *DB, email, nombre string, admin bool) Player {
	t.Helper()
	ctx := context.Background()
	pool := db.AdminPool(t)
	var id int64
	err := pool.QueryRow(ctx, `
		INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ('test:' || $1, $1, $2)
		ON CONFLICT (email) DO UPDATE SET nombre = EXCLUDED.nombre RETURNING id`, email, nombre).Scan(&id)
	if err != nil {
		t.Fatalf("sign in %s: %v", email, err)
	}
	sid := newUUID()
	expires := time.Now().Add(time.Hour)
	if _, err := pool.Exec(ctx, `INSERT INTO players.sesiones (id, jugador_id, expira) VALUES ($1, $2, $3)`, sid, id, expires); err != nil {
		t.Fatalf("open session: %v", err)
	}
	token, err := session.Sign(SessionKey, session.Claims{SessionID: sid, PlayerID: id, Email: email, Nombre: nombre, Admin: admin, Expires: expires.Unix()})
	if err != nil {
		t.Fatal(err)
	}
	return Player{ID: id, Email: email, Nombre: nombre, Cookie: &http.Cookie{Name: session.CookieName, Value: token}}
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, v := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[v>>4], hex[v&0x0f])
	}
	return string(out)
}
