// Package wire holds the JSON shapes that more than one service writes, so that the services
// and their tests answer and read them with one type. Each follows the component of the same
// name in contract/openapi.yaml, which the services' tests check every answer against.
package wire

import (
	"time"

	"prode/platform/display"
)

// Resultado is a match's score as fixtures (GET /api/partidos) and scoring (GET
// /api/resultados) show it: after 90 minutes, after extra time (cumulative) and the shoot-out.
type Resultado struct {
	GolesLocal            int  `json:"goles_local"`
	GolesVisitante        int  `json:"goles_visitante"`
	GolesLocalAlargue     *int `json:"goles_local_alargue"`
	GolesVisitanteAlargue *int `json:"goles_visitante_alargue"`
	PenalesLocal          *int `json:"penales_local"`
	PenalesVisitante      *int `json:"penales_visitante"`
}

// Encuentro is who plays, when and in which stage, as every match listing shows it; the
// answers embed it, so its fields sit among theirs.
type Encuentro struct {
	NombreLocal      string `json:"nombre_local"`
	NombreVisitante  string `json:"nombre_visitante"`
	BanderaLocal     string `json:"bandera_local"`
	BanderaVisitante string `json:"bandera_visitante"`
	Fecha            string `json:"fecha"` // the kick-off's day (2006-01-02) and time (15:04)
	Hora             string `json:"hora"`  // in the tournament's display time zone
	NombreCategoria  string `json:"nombre_categoria"`
}

// Equipo is one side of a match: its name (or the placeholder shown while it is unknown) and
// its flag code ("" while unknown).
type Equipo struct{ Nombre, Bandera string }

// NewEncuentro shows a match kicking off at inicio in zone.
func NewEncuentro(local, visitante Equipo, categoria string, inicio time.Time, zone *time.Location) Encuentro {
	fecha, hora := display.FechaHora(inicio, zone)
	return Encuentro{
		NombreLocal: local.Nombre, NombreVisitante: visitante.Nombre,
		BanderaLocal: local.Bandera, BanderaVisitante: visitante.Bandera,
		Fecha: fecha, Hora: hora, NombreCategoria: categoria,
	}
}
