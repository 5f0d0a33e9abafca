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
	other := good
	other.PlayerID = 8
	forgedClaims, _ := Sign([]byte("another key of thirty-two bytes!"), other)
	parts := strings.Split(token, ".")
	otherParts := strings.Split(forgedClaims, ".")
	for name, bad := range map[string]string{
		"signed with another key": forgedClaims,
		"claims swapped, old mac": parts[0] + "." + otherParts[1] + "." + parts[2],
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

// During a SESSION_KEY rotation a token verifies under the current key or the previous one,
// and under nothing else; an unset previous key (empty) never makes a token signed with an
// empty key valid.
func TestTokensVerifyUnderTheCurrentOrThePreviousKey(t *testing.T) {
	current := []byte("the new key of thirty-two bytes!")
	previous := []byte("the old key of thirty-two bytes!")
	now := time.Now()
	c := Claims{SessionID: "s-1", PlayerID: 7, Expires: now.Add(time.Hour).Unix()}
	sign := func(key []byte) string {
		token, err := Sign(key, c)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	for _, tc := range []struct {
		name   string
		keys   [][]byte
		signer []byte
		ok     bool
	}{
		{"current key", [][]byte{current, previous}, current, true},
		{"previous key", [][]byte{current, previous}, previous, true},
		{"previous key, no longer listed", [][]byte{current}, previous, false},
		{"another key", [][]byte{current, previous}, []byte("another key of thirty-two bytes!"), false},
		{"an empty key", [][]byte{current, nil, {}}, []byte{}, false},
	} {
		if _, err := ParseAny(tc.keys, sign(tc.signer), now); (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want accepted=%v", tc.name, err, tc.ok)
		}
	}
	v := NewVerifier(current, nil, nil, previous)
	if _, err := ParseAny(v.keys, sign(previous), now); err != nil || len(v.keys) != 2 {
		t.Errorf("NewVerifier(current, nil, nil, previous): keys %d, previous-key token %v", len(v.keys), err)
	}
}
