package http_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"prode/platform/ratelimit"
	"prode/platform/testenv"
	"prode/predictions/internal/bonus"
	"prode/predictions/internal/store"
)

// newQuestion creates a bonus question of the fixture's tournament, as the organiser would,
// with cierre (SQL; "NULL" for the default lock) and its options; it returns its id and its
// options' ids.
func (f *fixture) newQuestion(cierre string, opciones ...string) (int64, []int64) {
	f.t.Helper()
	ctx := context.Background()
	admin := f.db.AdminPool(f.t)
	var id int64
	if err := admin.QueryRow(ctx, `
		INSERT INTO fixtures.preguntas (torneo_id, texto, puntos, cierre)
		SELECT torneo_id, '¿Quién sale campeón?', 10, `+cierre+` FROM fixtures.partidos WHERE id = $1 RETURNING id`, f.match).Scan(&id); err != nil {
		f.t.Fatal(err)
	}
	var ids []int64
	for i, texto := range opciones {
		var o int64
		if err := admin.QueryRow(ctx, `INSERT INTO fixtures.pregunta_opciones (pregunta_id, texto, orden) VALUES ($1, $2, $3) RETURNING id`,
			id, texto, i).Scan(&o); err != nil {
			f.t.Fatal(err)
		}
		ids = append(ids, o)
	}
	return id, ids
}

// storedAnswer is the player's stored option for the question (0: none).
func (f *fixture) storedAnswer(p testenv.Player, pregunta int64) int64 {
	f.t.Helper()
	var o int64
	if err := f.db.AdminPool(f.t).QueryRow(context.Background(), `
		SELECT coalesce(max(opcion_id), 0) FROM predictions.respuestas WHERE jugador_id = $1 AND pregunta_id = $2`,
		p.ID, pregunta).Scan(&o); err != nil {
		f.t.Fatal(err)
	}
	return o
}

func answerPath(pregunta int64) string { return fmt.Sprintf("/api/preguntas/%d/respuesta", pregunta) }

func questions(t *testing.T, f *fixture, opts ...func(*http.Request)) map[int64]store.Pregunta {
	t.Helper()
	var list []store.Pregunta
	f.api.Do(http.MethodGet, "/api/preguntas", nil, opts...).Decode(t, &list)
	out := map[int64]store.Pregunta{}
	for _, q := range list {
		out[q.ID] = q
	}
	return out
}

// Before the lock a player answers and changes their answer; the list shows each player only
// their own; everyone's answers stay hidden. At the lock, by the database clock, a change is
// refused with nothing written, and the counts per option are shown.
func TestAnswersUntilTheLockThenCounts(t *testing.T) {
	f := newFixture(t)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	bruno := testenv.SignIn(t, f.db, "bruno@prode.test", "Bruno", false)
	q, ops := f.newQuestion(`now() + interval '1 day'`, "Argentina", "Francia", "Brasil")
	other, otherOps := f.newQuestion(`now() + interval '1 day'`, "Messi", "Mbappé")

	for _, c := range []struct {
		who    testenv.Player
		opcion int64
	}{{ana, ops[0]}, {bruno, ops[2]}, {ana, ops[1]}} {
		res := f.api.Do(http.MethodPut, answerPath(q), map[string]any{"opcion": c.opcion}, testenv.As(c.who))
		var r store.Respuesta
		res.Decode(t, &r)
		if res.Status != http.StatusOK || r.Pregunta != q || r.Opcion != c.opcion {
			t.Fatalf("%s answers %d: %d %s", c.who.Nombre, c.opcion, res.Status, res.Body)
		}
	}
	if got := f.storedAnswer(ana, q); got != ops[1] {
		t.Errorf("ana's stored answer %d, want her change %d", got, ops[1])
	}
	if got := f.storedAnswer(bruno, q); got != ops[2] {
		t.Errorf("bruno's stored answer %d, want his own %d (ana's writes are hers alone)", got, ops[2])
	}
	if mine := questions(t, f, testenv.As(ana))[q]; mine.MiRespuesta == nil || *mine.MiRespuesta != ops[1] || mine.Cerrada || len(mine.Opciones) != 3 {
		t.Errorf("ana's list: %+v", mine)
	}
	if theirs := questions(t, f, testenv.As(bruno)); theirs[other].MiRespuesta != nil ||
		theirs[q].MiRespuesta == nil || *theirs[q].MiRespuesta != ops[2] {
		t.Errorf("bruno's list shows answers other than his own: %+v", theirs)
	}
	if anon := questions(t, f)[q]; anon.MiRespuesta != nil || anon.Texto == "" {
		t.Errorf("signed out: %+v", anon)
	}

	for _, c := range []struct {
		path   string
		body   map[string]any
		status int
		code   string
	}{
		{answerPath(q), map[string]any{"opcion": otherOps[0]}, 400, "datos_invalidos"},          // another question's option
		{answerPath(q), map[string]any{"opcion": ops[0], "jugador": 1}, 400, "datos_invalidos"}, // no identity in the body
		{answerPath(999999), map[string]any{"opcion": ops[0]}, 404, "no_encontrado"},
		{"/api/preguntas/dos/respuesta", map[string]any{"opcion": ops[0]}, 404, "no_encontrado"},
	} {
		if res := f.api.Do(http.MethodPut, c.path, c.body, testenv.As(ana)); res.Status != c.status || res.ErrorCode() != c.code {
			t.Errorf("PUT %s %v: %d %s, want %d %s", c.path, c.body, res.Status, res.Body, c.status, c.code)
		}
	}
	if res := f.api.Do(http.MethodPut, answerPath(q), map[string]any{"opcion": ops[0]}); res.Status != 401 {
		t.Errorf("signed out answer: %d %s", res.Status, res.Body)
	}
	if got := f.storedAnswer(ana, q); got != ops[1] {
		t.Errorf("a refused answer changed ana's to %d", got)
	}
	saved := f.server.Registry
	if got := counterValue(t, saved, "prode_predictions_answers_saved_total", "created"); got != 2 {
		t.Errorf("answers created: %v, want 2", got)
	}
	if got := counterValue(t, saved, "prode_predictions_answers_saved_total", "updated"); got != 1 {
		t.Errorf("answers updated: %v, want 1", got)
	}
	if got := counterValue(t, saved, "prode_predictions_answers_refused_total", "datos_invalidos"); got != 2 {
		t.Errorf("answers refused as invalid: %v, want 2", got)
	}
	res := f.api.Do(http.MethodGet, fmt.Sprintf("/api/preguntas/%d/respuestas", q), nil, testenv.As(ana))
	if res.Status != http.StatusConflict || res.ErrorCode() != "respuestas_ocultas" {
		t.Errorf("counts before the lock: %d %s, want 409 respuestas_ocultas", res.Status, res.Body)
	}

	// The organiser's lock passes (as the database clock sees it).
	f.exec(`UPDATE fixtures.preguntas SET cierre = now() - interval '1 second' WHERE id = $1`, q)
	res = f.api.Do(http.MethodPut, answerPath(q), map[string]any{"opcion": ops[2]}, testenv.As(ana))
	if res.Status != http.StatusConflict || res.ErrorCode() != "pregunta_cerrada" ||
		!strings.Contains(string(res.Body), "La pregunta ya está cerrada") {
		t.Errorf("answer after the lock: %d %s, want 409 pregunta_cerrada", res.Status, res.Body)
	}
	if got := f.storedAnswer(ana, q); got != ops[1] {
		t.Errorf("an answer after the lock was written: %d", got)
	}
	if got := counterValue(t, f.server.Registry, "prode_predictions_answers_refused_total", "pregunta_cerrada"); got != 1 {
		t.Errorf("answers refused after the lock: %v, want 1", got)
	}
	if locked := questions(t, f, testenv.As(ana))[q]; !locked.Cerrada {
		t.Errorf("the list does not say closed: %+v", locked)
	}
	var counts bonus.Conteos
	res = f.api.Do(http.MethodGet, fmt.Sprintf("/api/preguntas/%d/respuestas", q), nil, testenv.As(bruno))
	res.Decode(t, &counts)
	if res.Status != 200 || counts.Total != 2 || len(counts.Opciones) != 3 || counts.Opciones[0].Cantidad != 0 ||
		counts.Opciones[1].Cantidad != 1 || counts.Opciones[1].Texto != "Francia" || counts.Opciones[2].Cantidad != 1 {
		t.Errorf("counts after the lock: %d %+v", res.Status, counts)
	}
	if res := f.api.Do(http.MethodGet, fmt.Sprintf("/api/preguntas/%d/respuestas", q), nil); res.Status != 401 {
		t.Errorf("counts signed out: %d", res.Status)
	}
}

// A question without its own lock closes an hour before the tournament's first kick-off as it
// is now: rescheduling the first match moves the lock with it.
func TestDefaultLockFollowsTheFirstKickOff(t *testing.T) {
	f := newFixture(t) // its match kicks off in two days
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	q, ops := f.newQuestion(`NULL`, "Sí", "No")
	if res := f.api.Do(http.MethodPut, answerPath(q), map[string]any{"opcion": ops[0]}, testenv.As(ana)); res.Status != 200 {
		t.Fatalf("answer two days before: %d %s", res.Status, res.Body)
	}
	f.exec(`UPDATE fixtures.partidos SET inicio = now() + interval '30 minutes' WHERE id = $1`, f.match)
	if res := f.api.Do(http.MethodPut, answerPath(q), map[string]any{"opcion": ops[1]}, testenv.As(ana)); res.ErrorCode() != "pregunta_cerrada" {
		t.Errorf("answer 30 minutes before the rescheduled first match: %d %s, want pregunta_cerrada", res.Status, res.Body)
	}
	if got := questions(t, f, testenv.As(ana))[q]; !got.Cerrada || got.Cierre == nil ||
		got.Cierre.After(time.Now()) {
		t.Errorf("the list after rescheduling: %+v", got)
	}
	f.exec(`UPDATE fixtures.partidos SET inicio = now() + interval '3 days' WHERE id = $1`, f.match)
	if res := f.api.Do(http.MethodPut, answerPath(q), map[string]any{"opcion": ops[1]}, testenv.As(ana)); res.Status != 200 {
		t.Errorf("answer after the first match moved later again: %d %s", res.Status, res.Body)
	}
	if got := f.storedAnswer(ana, q); got != ops[1] {
		t.Errorf("stored %d, want %d", got, ops[1])
	}
}

// Answers spend the same per-session allowance as predictions.
func TestAnswersShareTheWriteLimit(t *testing.T) {
	limit := ratelimit.New(5, 3)
	clock := time.Now()
	limit.SetClock(func() time.Time { return clock })
	f := newLimitedFixture(t, limit)
	ana := testenv.SignIn(t, f.db, "ana@prode.test", "Ana", false)
	q, ops := f.newQuestion(`now() + interval '1 day'`, "Sí", "No")
	if res := f.api.Do(http.MethodPost, path(ana), body(f.match, 1, 0, ana.Email), testenv.As(ana)); res.Status != 201 {
		t.Fatalf("prediction: %d %s", res.Status, res.Body)
	}
	for i := 0; i < 2; i++ {
		if res := f.api.Do(http.MethodPut, answerPath(q), map[string]any{"opcion": ops[i]}, testenv.As(ana)); res.Status != 200 {
			t.Fatalf("answer %d: %d %s", i, res.Status, res.Body)
		}
	}
	if res := f.api.Do(http.MethodPut, answerPath(q), map[string]any{"opcion": ops[0]}, testenv.As(ana)); res.Status != 429 {
		t.Errorf("the fourth write of a burst of 3: %d %s, want 429", res.Status, res.Body)
	}
}

// counterValue is a counter vector's value at one label value, gathered from reg.
func counterValue(t *testing.T, reg *prometheus.Registry, name, label string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			if f.GetName() == name && len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == label {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no series %s{%s}", name, label)
	return 0
}
