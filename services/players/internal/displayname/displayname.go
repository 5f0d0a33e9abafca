// Package displayname holds the rules of a player's display name, which every player sees in
// the standings and in everyone's picks of a match: visible text only, of a sensible length,
// that cannot pass for the organisers'. A name the player types is checked (Check) and refused
// with a Spanish message; a name from Google at sign-in is cleaned (Clean) instead, since a
// sign-in must never fail over the name an account happens to have.
package displayname

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"prode/platform/apierror"
)

// MaxRunes is the longest name, in code points (what JSON Schema's maxLength counts, so the
// contract's JugadorEntrada says the same). Long Spanish full names fit ("María de los Ángeles
// Fernández Rodríguez" is 41); the standings cut long names on screen, so a shorter limit
// would only refuse real names.
const MaxRunes = 100

// maxMarks is the most combining marks allowed in a row: enough for any script's stacked
// accents, not for "Zalgo" text whose marks spill over the rows above and below.
const maxMarks = 4

var (
	errNotText   = apierror.Invalid("El nombre tiene caracteres que no son texto válido.")
	errInvisible = apierror.Invalid("El nombre no puede tener caracteres invisibles ni de control (saltos de línea, marcas de dirección del texto, espacios de ancho cero).")
	errMarks     = apierror.Invalid("El nombre tiene demasiados signos encimados sobre una misma letra.")
	errTooLong   = apierror.Invalid(fmt.Sprintf("El nombre puede tener hasta %d caracteres.", MaxRunes))
	errEmpty     = apierror.Invalid("Escribí un nombre con al menos una letra o un número.")
)

// Check returns the name as it is stored (trimmed, in Unicode's composed form NFC), or why it
// is refused: an *apierror.Error, 400 datos_invalidos.
func Check(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", errNotText
	}
	name = norm.NFC.String(strings.TrimSpace(name))
	marks := 0
	for _, r := range name {
		if refused(r) {
			return "", errInvisible
		}
		if marks = countMark(marks, r); marks > maxMarks {
			return "", errMarks
		}
	}
	if utf8.RuneCountInString(name) > MaxRunes {
		return "", errTooLong
	}
	if !hasLetterOrNumber(name) {
		return "", errEmpty
	}
	return name, nil
}

// Clean turns any name (Google's, at sign-in) into one Check accepts unchanged, or "" when
// nothing usable is left: bytes that are not UTF-8 and refused characters go (a line break or
// other space becomes a space), marks past maxMarks go, runs of spaces become one, and the
// name is cut to MaxRunes.
func Clean(name string) string {
	name = strings.ToValidUTF8(name, "")
	var b strings.Builder
	marks := 0
	for _, r := range norm.NFC.String(name) {
		switch {
		case refused(r) && unicode.IsSpace(r):
			b.WriteByte(' ')
		case refused(r):
		default:
			if marks = countMark(marks, r); marks <= maxMarks {
				b.WriteRune(r)
			}
		}
	}
	name = strings.Join(strings.Fields(b.String()), " ")
	if r := []rune(name); len(r) > MaxRunes {
		name = string(r[:MaxRunes])
	}
	name, err := Check(name)
	if err != nil {
		return ""
	}
	return name
}

// refused is a character that shows nothing, or not what it is, where a name is displayed:
// Unicode's category C (controls such as NUL, format characters such as the bidi overrides
// and isolates U+202A-U+202E and U+2066-U+2069, the zero-width U+200B-U+200F and U+FEFF, the
// soft hyphen; private-use and surrogate code points), line and paragraph
// separators, the other default-ignorable characters (Hangul fillers, the combining grapheme
// joiner), and the blank Braille pattern, all of which render as nothing.
func refused(r rune) bool {
	return unicode.In(r, unicode.C, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point) || r == '\u2800'
}

// countMark is the number of combining marks in a row after r, given how many came before.
func countMark(before int, r rune) int {
	if unicode.In(r, unicode.Mn, unicode.Me) {
		return before + 1
	}
	return 0
}

func hasLetterOrNumber(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}
