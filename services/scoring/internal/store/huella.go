package store

// A match's fingerprint (scoring.partidos_contados.huella) is the sum of its predictions'
// 40-bit parts (scoring.huella_de, scoring 000009). Summed as it is, that sum leaves bigint's
// range past 2^23 (8.4 million) predictions of one match: PostgreSQL's cast would fail the
// scoring of that match and Go's addition would wrap. So both keep it modulo 2^62, the SQL
// that records it (sumOfHuellas) and the carry that checks against it (addHuella), and agree
// at any size; below 2^22 predictions the sum is unchanged, so recorded fingerprints stay valid.
const (
	huellaModulo = 1 << 62
	sumOfHuellas = `(sum(huella) % 4611686018427387904)::bigint`
)

// addHuella adds a prediction's part to a match's fingerprint: sum < 2^62 and part < 2^40, so
// the addition cannot overflow before the modulo.
func addHuella(sum, part int64) int64 { return (sum + part) % huellaModulo }
