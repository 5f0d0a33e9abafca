// Package text checks the free text that organisers type (a tournament's name, a venue, a
// placeholder such as "1A"): PostgreSQL refuses NUL in text, and control or invisible
// characters (line breaks, bidi overrides, zero-width spaces) would reach every player's screen.
// Players' display names have stricter rules of their own (players/internal/displayname).
package text

import "unicode"

// Visible says whether s has no character of Unicode's "other" categories (controls, format
// characters such as bidi overrides and zero-width spaces, surrogates, private use, unassigned)
// and no line or paragraph separator.
func Visible(s string) bool {
	for _, r := range s {
		if r == unicode.ReplacementChar || unicode.In(r, unicode.C, unicode.Zl, unicode.Zp) {
			return false
		}
	}
	return true
}
