// Package events names fixtures' outbox, the one way results and bonus questions' right
// answers reach scoring: the channel that fixtures notifies when it commits an event, and the
// kinds of event. Fixtures writes them, scoring listens and reads them, and both services'
// tests stand in for the other side with these same names, so that a rename cannot leave one
// side talking to nobody. The outbox table (fixtures.eventos, migrations/fixtures) accepts
// these kinds and no other.
package events

// Channel is the PostgreSQL channel fixtures notifies with each new event's id as payload, in
// the transaction that writes it. The notification only wakes scoring: the table is the truth.
const Channel = "fixtures_eventos"

// Kinds of outbox event (fixtures.eventos.tipo).
const (
	// ResultadoCargado: a match's result was entered or corrected.
	ResultadoCargado = "resultado_cargado"
	// ResultadoBorrado: a match's result was removed; the match is unplayed again.
	ResultadoBorrado = "resultado_borrado"
	// RespuestaCorrectaCargada: a bonus question's right answer (a set of options) was entered
	// or corrected. The event names the question (fixtures.eventos.pregunta_id), not a match.
	RespuestaCorrectaCargada = "respuesta_correcta_cargada"
	// RespuestaCorrectaBorrada: a bonus question's right answer was cleared; nobody has its
	// points until it is entered again.
	RespuestaCorrectaBorrada = "respuesta_correcta_borrada"
)
