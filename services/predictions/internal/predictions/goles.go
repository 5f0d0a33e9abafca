package predictions

import "strconv"

// Goles are one team's goals as the player sent them. Any JSON value is taken here and judged
// by Entero, so that 1.5, 100, 1e3 or "2" are refused in the player's words ("Los goles tienen
// que ser un número entero de 0 a 99.") instead of the decoder's ('El campo "goles_local"
// tiene un tipo incorrecto.'). A JSON null leaves the *Goles nil: missing, as an absent field.
type Goles struct{ literal string }

// UnmarshalJSON keeps the JSON literal for Entero.
func (g *Goles) UnmarshalJSON(b []byte) error {
	g.literal = string(b)
	return nil
}

// Entero is the goals when they are a whole number from 0 to 99 (schema Goles of the contract).
func (g *Goles) Entero() (int, bool) {
	n, err := strconv.Atoi(g.literal)
	return n, err == nil && n >= 0 && n <= 99
}
