package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"

	"prode/scoring/internal/scoringtest"
	"prode/scoring/internal/store"
)

// A snapshot ranked in the process (ranked.Rank, stored compact) is, row by row, the table the
// SQL window functions rank from the same totals: the order (points, exact hits, right outcomes,
// id), the competition rank, the rank before the last matchday and the bonus column, over 3,000
// players with many ties. Read back through a second store (a replica that did not build it,
// so decoded from PostgreSQL) and through the first (the snapshot it kept).
func TestSnapshotRanksAsTheWindowFunctions(t *testing.T) {
	e := scoringtest.New(t)
	ctx := context.Background()
	zone := "America/Argentina/Buenos_Aires"
	earlier := e.Match("Grupo A", "ARG", "FRA", scoringtest.NoonDaysAgo(t, 3))
	last := e.Match("Grupo A", "ARG", "MAR", scoringtest.NoonDaysAgo(t, 1))
	e.SetResult(earlier, scoringtest.Result{GolesLocal: 1})
	e.SetResult(last, scoringtest.Result{GolesLocal: 2})
	e.Exec(`INSERT INTO players.jugadores (google_sub, email, nombre)
	        SELECT 'sub' || i, 'j' || i || '@example.com', 'Jugador ' || i FROM generate_series(1, 3000) i`)
	var torneo int64
	if err := e.DB.AdminPool(t).QueryRow(ctx, `SELECT torneo_id FROM fixtures.partidos WHERE id = $1`, last).Scan(&torneo); err != nil {
		t.Fatal(err)
	}
	// Few distinct values, so that most rows tie on points and many on every column.
	e.Exec(`INSERT INTO scoring.totales_torneo (torneo_id, jugador_id, puntaje, exactos, aciertos, bonus)
	        SELECT $1, id, (id * 7) % 23, (id * 3) % 3, (id * 5) % 4, (id * 11) % 3 FROM players.jugadores WHERE id % 5 <> 0`, torneo)
	e.Exec(`INSERT INTO scoring.totales_fecha (torneo_id, fecha, jugador_id, puntaje, exactos, aciertos)
	        SELECT $1, (p.inicio AT TIME ZONE $3)::date, j.id, (j.id * 13) % 9, 0, 0
	          FROM players.jugadores j, fixtures.partidos p WHERE p.id = $2 AND j.id % 5 <> 0`, torneo, last, zone)

	snapshots := store.NewSnapshots(store.KeptSnapshots)
	builder := store.NewStandingsStore(e.DB.Pool(t, "scoring"), snapshots)
	tabla, err := builder.Build(ctx, torneo, true, zone)
	if err != nil {
		t.Fatal(err)
	}
	want := windowRanking(t, e, torneo, zone)
	if tabla.Filas != int64(len(want)) {
		t.Fatalf("the snapshot has %d rows, want %d", tabla.Filas, len(want))
	}
	replica := store.NewStandingsStore(e.DB.Pool(t, "scoring"), store.NewSnapshots(store.KeptSnapshots))
	for name, st := range map[string]*store.StandingsStore{"the builder": builder, "another replica": replica} {
		var got []store.Posicion
		for pagina := 1; int64(len(got)) < tabla.Filas; pagina++ {
			p, err := st.Page(ctx, store.Version{Tabla: tabla}, pagina, 100)
			if err != nil || len(p.Posiciones) == 0 {
				t.Fatalf("%s: page %d: %v (%d rows)", name, pagina, err, len(p.Posiciones))
			}
			got = append(got, p.Posiciones...)
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: row %d = %s, the window functions rank %s", name, i+1, show(got[i]), show(want[i]))
			}
		}
	}
}

// windowRanking is the table as scoring ranked it in SQL before snapshots were ranked in the
// process (row_number and rank over the same totals).
func windowRanking(t *testing.T, e *scoringtest.Env, torneo int64, zone string) []store.Posicion {
	rows, err := e.DB.AdminPool(t).Query(context.Background(), `
		WITH ultima AS (
		    SELECT max((inicio AT TIME ZONE $2)::date) AS fecha FROM fixtures.partidos_publicados WHERE torneo_id = $1 AND finalizado
		), m AS (
		    SELECT j.id, j.nombre, coalesce(t.puntaje, 0) AS puntaje, coalesce(t.exactos, 0) AS exactos,
		           coalesce(t.aciertos, 0) AS aciertos, coalesce(t.bonus, 0) AS bonus, coalesce(d.puntaje, 0) AS del_dia
		      FROM players.jugadores j
		      LEFT JOIN scoring.totales_torneo t ON t.torneo_id = $1 AND t.jugador_id = j.id
		      LEFT JOIN scoring.totales_fecha d ON d.torneo_id = $1 AND d.jugador_id = j.id AND d.fecha = (SELECT fecha FROM ultima)
		)
		SELECT rank() OVER (ORDER BY puntaje DESC), id, nombre, puntaje, exactos, aciertos,
		       rank() OVER (ORDER BY puntaje - del_dia DESC), bonus
		  FROM m
		 ORDER BY puntaje DESC, exactos DESC, aciertos DESC, id`, torneo, zone)
	if err != nil {
		t.Fatal(err)
	}
	want, err := pgx.CollectRows(rows, pgx.RowToStructByPos[store.Posicion])
	if err != nil {
		t.Fatal(err)
	}
	return want
}

func show(p store.Posicion) string {
	anterior := "null"
	if p.PosicionAnterior != nil {
		anterior = fmt.Sprint(*p.PosicionAnterior)
	}
	return fmt.Sprintf("{%s #%d: %d pts %d/%d bonus %d, before %s}", p.Nombre, p.Posicion, p.Puntaje, p.Exactos, p.Aciertos, p.Bonus, anterior)
}
