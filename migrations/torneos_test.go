package migrations

import "testing"

// A deployment filled by the release before tournaments (every match with a tournament name,
// points and totals for everything together) migrates into tournaments: one per name, the one
// played last current, every match and point in its tournament, and per-tournament totals equal
// to the points, adding up to the old totals.
func TestTournamentsMigrateAnExistingDeployment(t *testing.T) {
	db := releaseBefore(t, "fixtures/000002", "scoring/000002") // the release before tournaments
	// Two tournaments' matches, two players, points as the previous release kept them.
	exec(t, db, `
		INSERT INTO fixtures.equipos VALUES ('ARG', 'Argentina', 'ar'), ('FRA', 'Francia', 'fr');
		INSERT INTO players.jugadores (google_sub, email, nombre) VALUES ('s1', 'ana@prode.test', 'Ana'), ('s2', 'beto@prode.test', 'Beto');
		INSERT INTO fixtures.partidos (torneo, numero, categoria, local, visitante, inicio) VALUES
		    ('World Cup 2022', 1, 'Grupo C', 'ARG', 'FRA', '2022-11-22 10:00Z'),
		    ('World Cup 2022', 2, 'Final', 'ARG', 'FRA', '2022-12-18 15:00Z'),
		    ('Copa 2026', 1, 'Grupo A', 'ARG', 'FRA', '2026-06-11 19:00Z');
		INSERT INTO scoring.puntos (partido_id, jugador_id, puntos, exacto, acierto)
		SELECT p.id, j.id, CASE WHEN j.nombre = 'Ana' THEN 10 ELSE 5 END, j.nombre = 'Ana', true
		  FROM fixtures.partidos p CROSS JOIN players.jugadores j;
		INSERT INTO scoring.totales (jugador_id, puntaje, exactos, aciertos)
		SELECT jugador_id, sum(puntos), count(*) FILTER (WHERE exacto), count(*) FILTER (WHERE acierto)
		  FROM scoring.puntos GROUP BY jugador_id;`)

	up(t, db, nil)
	wantLatest(t, db)
	if got := query[string](t, db, `SELECT string_agg(nombre || ':' || actual, ', ' ORDER BY id) FROM fixtures.torneos`); got != "World Cup 2022:false, Copa 2026:true" {
		t.Errorf("tournaments %q, want World Cup 2022 then Copa 2026 (current, played last)", got)
	}
	if n := query[int64](t, db, `
		SELECT count(*) FROM fixtures.partidos p JOIN fixtures.torneos t ON t.id = p.torneo_id WHERE t.nombre = p.torneo`); n != 3 {
		t.Errorf("%d of 3 matches in the tournament of their name", n)
	}
	if n := query[int64](t, db, `
		SELECT count(*) FROM scoring.puntos pt JOIN fixtures.partidos p ON p.id = pt.partido_id WHERE pt.torneo_id = p.torneo_id`); n != 6 {
		t.Errorf("%d of 6 points in their match's tournament", n)
	}
	if got := query[string](t, db, `
		SELECT string_agg(t.nombre || '/' || j.nombre || '=' || tt.puntaje || ',' || tt.exactos || ',' || tt.aciertos, ' ' ORDER BY t.id, j.id)
		  FROM scoring.totales_torneo tt
		  JOIN fixtures.torneos t ON t.id = tt.torneo_id
		  JOIN players.jugadores j ON j.id = tt.jugador_id`); got != "World Cup 2022/Ana=20,2,2 World Cup 2022/Beto=10,0,2 Copa 2026/Ana=10,1,1 Copa 2026/Beto=5,0,1" {
		t.Errorf("per-tournament totals %q", got)
	}
	if n := query[int64](t, db, `
		SELECT count(*) FROM scoring.totales o
		  JOIN (SELECT jugador_id, sum(puntaje) AS puntaje FROM scoring.totales_torneo GROUP BY 1) n USING (jugador_id)
		 WHERE o.puntaje = n.puntaje`); n != 2 {
		t.Errorf("%d of 2 players' per-tournament totals add up to their old totals", n)
	}
	// A match inserted by name alone, as the previous release's pods do during the upgrade,
	// lands in its tournament; a new name makes a new tournament, not current.
	exec(t, db, `INSERT INTO fixtures.partidos (torneo, numero, categoria, local, visitante, inicio) VALUES
		('Copa 2026', 2, 'Grupo A', 'FRA', 'ARG', '2026-06-12 19:00Z'), ('Amistosos', 1, 'Amistoso', 'ARG', 'FRA', '2026-03-01 19:00Z')`)
	if got := query[string](t, db, `
		SELECT string_agg(p.torneo || '=' || t.nombre || ':' || t.actual, ', ' ORDER BY p.id)
		  FROM fixtures.partidos p JOIN fixtures.torneos t ON t.id = p.torneo_id WHERE p.numero = 2 AND p.torneo = 'Copa 2026' OR p.torneo = 'Amistosos'`); got != "Copa 2026=Copa 2026:true, Amistosos=Amistosos:false" {
		t.Errorf("matches inserted by name: %q", got)
	}
}
