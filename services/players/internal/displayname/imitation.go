package displayname

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"prode/platform/apierror"
)

var errImitation = apierror.Invalid("Ese nombre se puede confundir con el de la organización del prode. Elegí otro.")

// Imitates says whether a name could pass for the organisers' in the standings: its skeleton
// (below) contains a word that names an organiser's role, or is one of the few names that stand
// for the game itself, or is the skeleton of an organiser's own display name. Organisers are
// not asked: the caller checks only other players' names.
func Imitates(name string, organiserNames []string) bool {
	s := skeleton(name)
	if s == "" {
		return false
	}
	for _, role := range roleWords {
		if strings.Contains(s, skeleton(role)) {
			return true
		}
	}
	for _, whole := range gameNames {
		if s == skeleton(whole) {
			return true
		}
	}
	for _, o := range organiserNames {
		if s == skeleton(o) {
			return true
		}
	}
	return false
}

// CheckNotImitating is Imitates as the refusal a player reads.
func CheckNotImitating(name string, organiserNames []string) error {
	if Imitates(name, organiserNames) {
		return errImitation
	}
	return nil
}

// roleWords name an organiser's role; a name containing one is refused whatever surrounds it
// ("El Organizador", "Admin 2", "Moderadora del prode"). They are long or unusual enough that
// no real name holds them.
var roleWords = []string{"organizador", "organizacion", "admin", "moderador", "moderacion"}

// gameNames stand for the game itself only as the whole name: "Prode" is refused, "Juan del
// Prode" is not.
var gameNames = []string{"prode", "prode oficial", "oficial prode", "el prode", "staff", "soporte"}

// skeleton is what a reader takes a name for: compatibility forms folded (NFKD turns fullwidth
// and mathematical letters into plain ones and takes accents apart), lower case, look-alike
// letters of other scripts and digits read as the Latin letters they imitate, and only letters
// kept, so spaces, punctuation, accents and invisible marks make no difference.
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(name) {
		r = unicode.ToLower(r)
		if latin, ok := lookAlikes[r]; ok {
			r = latin
		}
		if unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookAlikes are characters read as a Latin letter: digits and signs of "leetspeak", Cyrillic
// and Greek letters drawn like Latin ones, and Latin small capitals and dotless i. l and | read
// as i, as a capital I and a lower-case l look the same in most fonts.
var lookAlikes = map[rune]rune{
	'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's', '|': 'i', '!': 'i', 'l': 'i',
	// Cyrillic
	'а': 'a', 'в': 'b', 'ԁ': 'd', 'е': 'e', 'ё': 'e', 'һ': 'h', 'н': 'h', 'і': 'i', 'ї': 'i', 'ј': 'j', 'к': 'k',
	'м': 'm', 'о': 'o', 'р': 'p', 'с': 'c', 'ѕ': 's', 'т': 't', 'у': 'y', 'х': 'x', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'i',
	// Greek
	'α': 'a', 'β': 'b', 'ε': 'e', 'ζ': 'z', 'η': 'n', 'ι': 'i', 'κ': 'k', 'μ': 'm', 'ν': 'v', 'ο': 'o', 'ρ': 'p',
	'τ': 't', 'υ': 'u', 'χ': 'x',
	// Latin small capitals and dotless i
	'ᴀ': 'a', 'ʙ': 'b', 'ᴄ': 'c', 'ᴅ': 'd', 'ᴇ': 'e', 'ɢ': 'g', 'ʜ': 'h', 'ɪ': 'i', 'ᴊ': 'j', 'ᴋ': 'k', 'ʟ': 'i',
	'ᴍ': 'm', 'ɴ': 'n', 'ᴏ': 'o', 'ᴘ': 'p', 'ʀ': 'r', 'ꜱ': 's', 'ᴛ': 't', 'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w', 'ᴢ': 'z',
	'ı': 'i', 'ɑ': 'a', 'ɡ': 'g',
}
