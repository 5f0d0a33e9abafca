package session

import (
	"strings"
	"testing"
	"time"
)

func TestTokensAreRefusedWhenForgedOrExpired(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	now := time.Now()
	good := Claims{SessionID: "s-1", PlayerID: 7, Email: "ana@prode.test", Nombre: "Ana", Expires: now.Add(time.Hour).Unix()}
	token, err := Sign(key, good)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := Parse(key, token, now); err != nil || c != good {
		t.Fatalf("a good token: %+v %v", c, err)
	}
	admin := good
	admin.Admin = true
	forgedClaims, _ := Sign([]byte("another key of thirty-two bytes!"), admin)
	parts := strings.Split(token, ".")
	adminParts := strings.Split(forgedClaims, ".")
	for name, bad := range map[string]string{
		"signed with another key": forgedClaims,
		"claims swapped, old mac": parts[0] + "." + adminParts[1] + "." + parts[2],
		"truncated":               token[:len(token)-3],
		"empty":                   "",
		"no signature":            parts[0] + "." + parts[1],
		"other version":           "v2." + parts[1] + "." + parts[2],
	} {
		if _, err := Parse(key, bad, now); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Parse(key, token, now.Add(2*time.Hour)); err == nil {
		t.Error("an expired token was accepted")
	}
}
