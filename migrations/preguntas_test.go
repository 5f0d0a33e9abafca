package migrations

import (
	"strings"
	"testing"
)

// fixtures 000005, predictions 000002 and scoring 000005 bring bonus questions to a deployment
// already in use: its matches, result events and totals stay; a question's default lock
// follows the tournament's first kick-off; the outbox takes a question's events (exactly one of
// match or question); each role reads only what it should; and the down migrations leave the
// schemas as they were, the totals without the bonus points they included.
func TestPreguntasMigrateAndRollBack(t *testing.T) {
	db := releaseBefore(t, "fixtures/000005", "predictions/000002", "scoring/000005")
	exec(t, db, `
		INSERT INTO fixtures.equipos VALUES ('ARG', 'Argentina', 'ar'), ('FRA', 'Francia', 'fr');
		INSERT INTO fixtures.torneos (nombre, actual) VALUES ('Copa', true);
		INSERT INTO fixtures.partidos (torneo, torneo_id, numero, categoria, local, visitante, inicio)
		SELECT 'Copa', id, 1, 'Grupo A', 'ARG', 'FRA', '2030-06-11 19:00Z' FROM fixtures.torneos;
		INSERT INTO fixtures.eventos (partido_id, tipo) SELECT id, 'resultado_cargado' FROM fixtures.partidos;
		INSERT INTO scoring.totales_torneo (torneo_id, jugador_id, puntaje, exactos, aciertos)
		SELECT id, 7, 10, 1, 1 FROM fixtures.torneos;`)
	objectsBefore := objects(t, db)

	up(t, db, nil)
	wantLatest(t, db)
	if got := query[string](t, db, `SELECT string_agg(tipo || ':' || (partido_id IS NOT NULL) || ':' || (pregunta_id IS NULL), ',') FROM fixtures.eventos_publicados`); got != "resultado_cargado:true:true" {
		t.Errorf("outbox after the migration %q, want the result event as it was", got)
	}
	if got := query[string](t, db, `SELECT puntaje || '/' || bonus FROM scoring.totales_torneo`); got != "10/0" {
		t.Errorf("totals after the migration %q, want 10 points of which 0 bonus", got)
	}

	// A question without its own lock closes an hour before the first kick-off, and follows it.
	exec(t, db, `
		INSERT INTO fixtures.preguntas (torneo_id, texto, puntos) SELECT id, '¿Campeón?', 10 FROM fixtures.torneos;
		INSERT INTO fixtures.pregunta_opciones (pregunta_id, texto, orden) SELECT id, 'Argentina', 1 FROM fixtures.preguntas;`)
	if got := query[string](t, db, `SELECT to_char(cierre AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM fixtures.preguntas_publicadas`); got != "2030-06-11 18:00" {
		t.Errorf("default lock %q, want an hour before the first kick-off", got)
	}
	exec(t, db, `UPDATE fixtures.partidos SET inicio = '2030-06-10 12:00Z'`)
	if got := query[string](t, db, `SELECT to_char(cierre AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM fixtures.preguntas_publicadas`); got != "2030-06-10 11:00" {
		t.Errorf("default lock after rescheduling %q, want an hour before the new first kick-off", got)
	}
	exec(t, db, `
		INSERT INTO fixtures.respuestas_correctas SELECT pregunta_id, id FROM fixtures.pregunta_opciones;
		INSERT INTO fixtures.eventos (pregunta_id, tipo) SELECT id, 'respuesta_correcta_cargada' FROM fixtures.preguntas;
		INSERT INTO fixtures.auditoria (email, nombre, accion, pregunta_id) SELECT 'o@prode.test', 'O', 'respuesta_correcta_cargada', id FROM fixtures.preguntas;
		INSERT INTO predictions.respuestas (jugador_id, pregunta_id, opcion_id) SELECT 7, pregunta_id, id FROM fixtures.pregunta_opciones;
		INSERT INTO scoring.puntos_bonus (pregunta_id, jugador_id, torneo_id, puntos) SELECT id, 7, torneo_id, 10 FROM fixtures.preguntas;
		UPDATE scoring.totales_torneo SET puntaje = puntaje + 10, bonus = bonus + 10;`)
	for _, bad := range []string{
		`INSERT INTO fixtures.eventos (tipo) VALUES ('respuesta_correcta_borrada')`,
		`INSERT INTO fixtures.eventos (partido_id, pregunta_id, tipo) SELECT p.id, q.id, 'resultado_borrado' FROM fixtures.partidos p, fixtures.preguntas q`,
		`INSERT INTO fixtures.eventos (pregunta_id, tipo) SELECT id, 'pregunta_rara' FROM fixtures.preguntas`,
		`INSERT INTO fixtures.preguntas (torneo_id, texto, puntos) SELECT id, 'Mucho', 101 FROM fixtures.torneos`,
	} {
		if err := execErr(t, db, bad); err == nil {
			t.Errorf("accepted: %s", bad)
		}
	}
	// A right option of another question is refused.
	exec(t, db, `INSERT INTO fixtures.preguntas (torneo_id, texto, puntos) SELECT id, 'Otra', 5 FROM fixtures.torneos`)
	if err := execErr(t, db, `INSERT INTO fixtures.respuestas_correctas SELECT q.id, o.id FROM fixtures.preguntas q, fixtures.pregunta_opciones o WHERE q.texto = 'Otra'`); err == nil {
		t.Error("a right option of another question was accepted")
	}
	for table, want := range map[string][]string{
		"fixtures.preguntas_publicadas":            {"prode_fixtures=r/", "prode_predictions=r/", "prode_scoring=r/"},
		"fixtures.respuestas_correctas_publicadas": {"prode_fixtures=r/", "prode_predictions=r/", "prode_scoring=r/"},
		"predictions.respuestas":                   {"prode_predictions=arw/"},
		"predictions.respuestas_publicadas":        {"prode_predictions=r/", "prode_scoring=r/"},
		"scoring.puntos_bonus":                     {"prode_scoring=arwd/"},
	} {
		acl := query[string](t, db, `SELECT relacl::text FROM pg_class WHERE oid = $1::regclass`, table)
		for _, w := range want {
			if !strings.Contains(acl, w) {
				t.Errorf("grants on %s %s, want %s", table, acl, w)
			}
		}
		if strings.Count(acl, "prode_") != len(want) {
			t.Errorf("grants on %s %s, want only %v", table, acl, want)
		}
	}

	down(t, db, "scoring/000009_huellas.down.sql", "scoring/000008_partidos_contados.down.sql", "scoring/000007_tablas_compactas.down.sql", "scoring/000006_fijados.down.sql", "scoring/000005_bonus.down.sql", "predictions/000004_indice_reconstruido.down.sql", "predictions/000003_apuestas_por_partido.down.sql", "predictions/000002_respuestas.down.sql", "fixtures/000005_preguntas.down.sql")
	if after := objects(t, db); after != objectsBefore {
		t.Errorf("the down migrations left the schemas different:\nbefore:\n%s\nafter:\n%s", objectsBefore, after)
	}
	if got := query[string](t, db, `SELECT puntaje::text FROM scoring.totales_torneo`); got != "10" {
		t.Errorf("totals after the down migration %q, want 10 (without the bonus)", got)
	}
	if got := query[string](t, db, `SELECT string_agg(tipo, ',') FROM fixtures.eventos_publicados`); got != "resultado_cargado" {
		t.Errorf("outbox after the down migration %q, want the result event alone", got)
	}
}
