package grupos

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"prode/platform/text"
)

// MaxNombre is the longest league name, in characters.
const MaxNombre = 60

// cleanName trims a league's name and checks it: 1 to MaxNombre characters, none of them
// control or invisible (platform/text: they would reach every member's screen).
func cleanName(nombre string) (string, error) {
	nombre = strings.TrimSpace(nombre)
	n := utf8.RuneCountInString(nombre)
	if n < 1 || n > MaxNombre || !utf8.ValidString(nombre) || !text.Visible(nombre) {
		return "", errNombre
	}
	return nombre, nil
}

// newCode draws an invite code: 16 random bytes (128 bits, unguessable) as base64url without
// padding, 22 characters that travel in a URL as they are.
func newCode() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// plausibleCode says whether s could be a code newCode drew, so that anything else is refused
// without a database round trip.
func plausibleCode(s string) bool {
	if len(s) != 22 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}
