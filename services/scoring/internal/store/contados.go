package store

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Contados is what a standings snapshot counts of each match of its tournament
// (scoring.tablas_compactas.contados): the score its points come from, or that it is not known
// (matches scored before the score was recorded). A match in neither has no points in it.
type Contados struct {
	Marcadores   map[int64]Marcador `json:"marcadores"`
	Desconocidos []int64            `json:"desconocidos"`
	// Huellas is the fingerprint (scoring 000009) of the predictions each counted score's
	// points come from, where it is known: a snapshot ranked from the totals has its rows', a
	// carried one the predictions it read.
	Huellas map[int64]int64 `json:"huellas,omitempty"`
	// Zona is the time zone the snapshot's matchday points were dated in (scoring.estado.zona
	// as its totals were read): a snapshot dated in another zone is not carried.
	Zona string `json:"zona"`
}

// Marcador is a counted score: home goals, away goals.
type Marcador [2]int16

// countsRowsOf reports whether a snapshot counting c counts match p as its points rows do: the
// same score, or no points when it has no rows, and the same predictions where both
// fingerprints are known (a prediction a carry read and the rows did not, or the reverse,
// makes them differ).
func (c Contados) countsRowsOf(p partidoState) bool {
	counted, has := c.Marcadores[p.ID]
	if has != (p.Marcador != nil) || has && counted != *p.Marcador {
		return false
	}
	huella, known := c.Huellas[p.ID]
	return !has || !known || p.Huella == nil || huella == *p.Huella
}

// countedScores selects the score that counts of each match of $1 that has a result, by the
// knock-out setting $2 ("alargue": the score after extra time in a knock-out match that had
// it; otherwise the score after 90 minutes): partido_id, torneo_id, local, visitante. The
// scorer writes points from it (ScoreMatches) and a snapshot is carried to it (CarryAhead).
const countedScores = `
	SELECT r.partido_id, p.torneo_id,
	       CASE WHEN $2 = 'alargue' AND p.categoria NOT LIKE 'Grupo%' AND r.goles_local_alargue IS NOT NULL
	            THEN r.goles_local_alargue ELSE r.goles_local END AS local,
	       CASE WHEN $2 = 'alargue' AND p.categoria NOT LIKE 'Grupo%' AND r.goles_visitante_alargue IS NOT NULL
	            THEN r.goles_visitante_alargue ELSE r.goles_visitante END AS visitante
	  FROM fixtures.resultados_publicados r
	  JOIN fixtures.partidos_publicados p ON p.id = r.partido_id
	 WHERE r.partido_id = ANY($1)`

// partidoState is one match of a tournament as a snapshot is taken: its matchday, whether it
// has a result, and the score its points rows were written from, when that is known.
type partidoState struct {
	ID         int64
	Fecha      time.Time
	Finalizado bool
	Conocido   bool      // the points rows' score is recorded and current
	Marcador   *Marcador // that score; nil: no points rows
	Huella     *int64    // the fingerprint of the predictions the rows come from; nil: not known
}

// matchStates reads every match of tournament $1, its matchday in zone $2, the score of its
// points rows and the fingerprint of their predictions (scoring.partidos_contados). That score
// is current unless a scorer that does not record it (the previous release) applied a newer
// outbox event of the match since, or wrote the match's first points.
const matchStates = `
	WITH aplicados AS (
	    SELECT e.partido_id, max(e.id) AS evento
	      FROM fixtures.eventos_publicados e
	      JOIN scoring.eventos_procesados x ON x.evento_id = e.id
	      JOIN fixtures.partidos_publicados p ON p.id = e.partido_id AND p.torneo_id = $1
	     GROUP BY e.partido_id
	)
	SELECT p.id, (p.inicio AT TIME ZONE $2)::date, p.finalizado,
	       CASE WHEN c.partido_id IS NULL THEN a.evento IS NULL
	            ELSE c.conocido AND c.evento >= coalesce(a.evento, 0) END,
	       c.goles_local, c.goles_visitante, c.huella
	  FROM fixtures.partidos_publicados p
	  LEFT JOIN scoring.partidos_contados c ON c.partido_id = p.id
	  LEFT JOIN aplicados a ON a.partido_id = p.id
	 WHERE p.torneo_id = $1
	 ORDER BY p.id`

func readMatchStates(ctx context.Context, tx pgx.Tx, torneo int64, zone string) ([]partidoState, error) {
	rows, err := tx.Query(ctx, matchStates, torneo, zone)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (partidoState, error) {
		var p partidoState
		var local, visitante *int16
		err := row.Scan(&p.ID, &p.Fecha, &p.Finalizado, &p.Conocido, &local, &visitante, &p.Huella)
		if local != nil && visitante != nil {
			p.Marcador = &Marcador{*local, *visitante}
		}
		return p, err
	})
}

// countedBy is what a snapshot ranked from the totals counts: the points rows' scores, and the
// zone their matchdays are dated in.
func countedBy(states []partidoState, zona string) Contados {
	c := Contados{Marcadores: map[int64]Marcador{}, Desconocidos: []int64{}, Huellas: map[int64]int64{}, Zona: zona}
	for _, p := range states {
		switch {
		case !p.Conocido:
			c.Desconocidos = append(c.Desconocidos, p.ID)
		case p.Marcador != nil:
			c.Marcadores[p.ID] = *p.Marcador
			if p.Huella != nil {
				c.Huellas[p.ID] = *p.Huella
			}
		}
	}
	return c
}

// matchdays are the finished matches' days: the last one (nil: none) and whether there is more
// than one (a previous rank exists).
func matchdays(states []partidoState) (last *time.Time, several bool) {
	var days []time.Time
	for _, p := range states {
		if p.Finalizado {
			days = append(days, p.Fecha)
		}
	}
	if len(days) == 0 {
		return nil, false
	}
	slices.SortFunc(days, time.Time.Compare)
	days = slices.CompactFunc(days, time.Time.Equal)
	return &days[len(days)-1], len(days) > 1
}
