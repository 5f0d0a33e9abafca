package session

import (
	"strings"
	"testing"
	"time"
)

var fuzzKey = []byte("0123456789abcdef0123456789abcdef")

// FuzzParse: no input panics; whatever is accepted was signed with the key, is a v1 token
// within the size limit, names a session and a positive player id, and has not expired.
// Seeds: testdata/fuzz/FuzzParse (valid tokens signed with fuzzKey, and broken ones).
func FuzzParse(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	f.Fuzz(func(t *testing.T, token string) {
		c, err := Parse(fuzzKey, token, now)
		if err != nil {
			if err != ErrInvalid {
				t.Fatalf("%q: error %v is not ErrInvalid", token, err)
			}
			return
		}
		if len(token) > 4096 || !strings.HasPrefix(token, "v1.") {
			t.Fatalf("%q accepted", token)
		}
		if c.SessionID == "" || c.PlayerID <= 0 || c.Expires <= now.Unix() {
			t.Fatalf("%q accepted with claims %+v", token, c)
		}
		if _, err := Parse([]byte("another key of thirty-two bytes!"), token, now); err == nil {
			t.Fatalf("%q accepted under two keys", token)
		}
	})
}
