package session

import "strings"

// NormalizeEmail is the one form in which e-mail addresses are compared and stored: surrounding
// spaces trimmed and the ASCII letters A-Z lower-cased, nothing else. Unicode case folding
// makes different addresses equal: strings.EqualFold matches the long s 'ſ' with 's', and
// strings.ToLower turns the Kelvin sign 'K' (U+212A) into 'k', so an address written with one
// of them would pass for another player's, or an organiser's.
func NormalizeEmail(email string) string {
	email = strings.TrimSpace(email)
	var b strings.Builder
	b.Grow(len(email))
	for i := 0; i < len(email); i++ {
		c := email[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// SameEmail says whether two addresses name the same player: equal once normalized.
func SameEmail(a, b string) bool { return NormalizeEmail(a) == NormalizeEmail(b) }

// Admins is the set of organisers' addresses (ADMIN_EMAILS). It is read at start and consulted
// on every request, never written into a session token, so that an address removed from it
// loses the organiser's routes on the first request a service answers with the new list, not
// when that organiser's session expires.
type Admins map[string]struct{}

// NewAdmins builds the set from the addresses as configured; empty entries are skipped.
func NewAdmins(emails []string) Admins {
	a := Admins{}
	for _, e := range emails {
		if e = NormalizeEmail(e); e != "" {
			a[e] = struct{}{}
		}
	}
	return a
}

// Has says whether email is an organiser's.
func (a Admins) Has(email string) bool {
	_, ok := a[NormalizeEmail(email)]
	return ok
}

// Emails lists the organisers' addresses, normalized.
func (a Admins) Emails() []string {
	out := make([]string, 0, len(a))
	for e := range a {
		out = append(out, e)
	}
	return out
}
