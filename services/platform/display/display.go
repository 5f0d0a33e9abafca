// Package display formats kick-offs the way the specification shows them: fecha and hora in
// the tournament's display time zone.
package display

import "time"

// FechaHora returns "2006-01-02" and "15:04" of t in zone.
func FechaHora(t time.Time, zone *time.Location) (string, string) {
	local := t.In(zone)
	return local.Format("2006-01-02"), local.Format("15:04")
}
