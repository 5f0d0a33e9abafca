package events

import "strconv"

// AccessChannel is the PostgreSQL channel that tells scoring's replicas to forget what they
// remember of who may read a league's table (grupos' access cache): players notifies it when
// 'Salir' ends a session, scoring when a league's members or a tournament's newest standings
// change. Each notification is sent by the statement that makes the change, so it is heard
// when that change commits, by every replica listening.
const AccessChannel = "prode_acceso"

// Payloads of AccessChannel: what changed.
const (
	SessionEndedPrefix  = "sesion:"
	LeagueChangedPrefix = "grupo:"
	TableChangedPrefix  = "torneo:"
)

// SessionEnded is the payload for a session that 'Salir' ended (its id, a UUID).
func SessionEnded(sessionID string) string { return SessionEndedPrefix + sessionID }

// LeagueChanged is the payload for a league whose members changed, or which was deleted.
func LeagueChanged(grupo int64) string { return LeagueChangedPrefix + strconv.FormatInt(grupo, 10) }

// TableChanged is the payload for a tournament whose newest standings snapshot changed.
func TableChanged(torneo int64) string { return TableChangedPrefix + strconv.FormatInt(torneo, 10) }
