package text

import "testing"

func TestVisible(t *testing.T) {
	for _, s := range []string{"", "Copa del Mundo 2026", "Estadio Azteca, Ciudad de México", "1A", "3A/B/C/D/F", "São Paulo", "Perú 🇵🇪"} {
		if !Visible(s) {
			t.Errorf("Visible(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"a\x00b", "línea\nnueva", "tab\there", "esc\x1b[31m", "nel\u0085", "rtl\u202eevil", "zero\u200bwidth", "bom\ufeff", "sep\u2028", "bad\xffbyte"} {
		if Visible(s) {
			t.Errorf("Visible(%q) = true, want false", s)
		}
	}
}
