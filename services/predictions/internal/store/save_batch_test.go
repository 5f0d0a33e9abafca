package store

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"prode/platform/testenv"
)

// batchFixture is a fresh database with a match that takes predictions (open) and one past its
// cut-off (closed), the batching store as the service's role, and players signed in.
type batchFixture struct {
	t            *testing.T
	db           *testenv.DB
	admin        *pgxpool.Pool
	open, closed int64
	batched      *Batched
}

func newBatchFixture(t *testing.T) *batchFixture {
	db := testenv.NewDB(t)
	f := &batchFixture{t: t, db: db, admin: db.AdminPool(t), batched: NewBatched(New(db.Pool(t, "predictions")), nil)}
	f.exec(`INSERT INTO fixtures.equipos VALUES ('ARG','Argentina','ar'), ('FRA','Francia','fr')`)
	f.exec(`INSERT INTO fixtures.partidos (torneo, numero, categoria, local, visitante, inicio)
		VALUES ('Test', 1, 'Grupo A', 'ARG', 'FRA', now() + interval '2 days'),
		       ('Test', 2, 'Grupo A', 'ARG', 'FRA', now() + interval '30 minutes')`) // the cut-off is 1 hour before
	f.scan(`SELECT min(id), max(id) FROM fixtures.partidos`, nil, &f.open, &f.closed)
	return f
}

func (f *batchFixture) exec(sql string, args ...any) {
	f.t.Helper()
	if _, err := f.admin.Exec(context.Background(), sql, args...); err != nil {
		f.t.Fatalf("%s: %v", sql, err)
	}
}

func (f *batchFixture) scan(sql string, args []any, dest ...any) {
	f.t.Helper()
	if err := f.admin.QueryRow(context.Background(), sql, args...).Scan(dest...); err != nil {
		f.t.Fatalf("%s: %v", sql, err)
	}
}

// signIn opens a session for a new player and returns the player and the session's id.
func (f *batchFixture) signIn(name string) (testenv.Player, string) {
	p := testenv.SignIn(f.t, f.db, name+"@prode.test", name, false)
	var sid string
	f.scan(`SELECT id::text FROM players.sesiones WHERE jugador_id = $1 AND cerrada IS NULL`, []any{p.ID}, &sid)
	return p, sid
}

// One batch of saves from many players, written by one statement: each save gets its own row
// back, the guards refuse row by row (a match past its cut-off, a session ended with 'Salir')
// without refusing the others, and a second save of the same player and match waits for the
// next statement instead of failing the batch ("ON CONFLICT DO UPDATE command cannot affect
// row a second time").
func TestABatchAnswersEachSaveOnItsOwn(t *testing.T) {
	ctx := context.Background()
	f := newBatchFixture(t)
	open, closed, b := f.open, f.closed, f.batched
	var players []testenv.Player
	sessions := map[int64]string{}
	for i := range 12 {
		p, sid := f.signIn(fmt.Sprintf("p%02d", i))
		players, sessions[p.ID] = append(players, p), sid
	}
	var saves []*pendingSave
	add := func(p testenv.Player, partido int64, local, visitante int16) *pendingSave {
		s := &pendingSave{player: p.ID, email: p.Email, partido: partido, local: local, visitante: visitante, done: make(chan struct{})}
		sid := sessions[p.ID]
		if err := s.session.Scan(sid); err != nil {
			t.Fatal(err)
		}
		saves = append(saves, s)
		return s
	}
	// Queued in reverse, so that the statement's order (player, match) differs from arrival.
	var onOpen []*pendingSave
	for i := len(players) - 1; i >= 2; i-- {
		onOpen = append(onOpen, add(players[i], open, int16(i), int16(i%3)))
	}
	late := add(players[0], closed, 1, 1)
	ended := add(players[1], open, 2, 2)
	f.exec(`UPDATE players.sesiones SET cerrada = now() WHERE jugador_id = $1`, players[1].ID) // 'Salir'
	again := add(players[5], open, 7, 7)                                                       // a second save, same match

	b.pending = saves
	first := b.take()
	if len(first) != len(saves)-1 || len(b.pending) != 1 || b.pending[0] != again {
		t.Fatalf("first batch %d saves, %d left; want %d and the repeated one", len(first), len(b.pending), len(saves)-1)
	}
	b.write(ctx, first)
	for _, s := range onOpen {
		<-s.done
		if s.err != nil || !s.written || !s.created || s.apuesta.Partido != open ||
			s.apuesta.GolesLocal != int(s.local) || s.apuesta.GolesVisitante != int(s.visitante) || s.apuesta.Jugador != s.email {
			t.Fatalf("save of player %d: %+v written=%v created=%v err=%v", s.player, s.apuesta, s.written, s.created, s.err)
		}
	}
	for name, s := range map[string]*pendingSave{"past the cut-off": late, "after 'Salir'": ended} {
		if <-s.done; s.err != nil || s.written {
			t.Fatalf("the save %s: written=%v err=%v, want refused", name, s.written, s.err)
		}
	}
	b.flush(nil) // the repeated save, alone in the next statement
	<-again.done
	if again.err != nil || !again.written || again.created || again.apuesta.GolesLocal != 7 {
		t.Fatalf("the second save of the same match: %+v created=%v err=%v, want an update to 7-7", again.apuesta, again.created, again.err)
	}

	want := map[int64][2]int16{players[5].ID: {7, 7}}
	for _, s := range onOpen {
		if s.player != players[5].ID { // whose first save was since updated
			want[s.player] = [2]int16{s.local, s.visitante}
		}
	}
	rows, err := f.admin.Query(ctx, `SELECT jugador_id, partido_id, goles_local, goles_visitante FROM predictions.apuestas`)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[int64][2]int16{}
	for rows.Next() {
		var player, partido int64
		var goles [2]int16
		if err := rows.Scan(&player, &partido, &goles[0], &goles[1]); err != nil {
			t.Fatal(err)
		}
		if partido != open {
			t.Fatalf("a row for match %d was stored", partido)
		}
		stored[player] = goles
	}
	if fmt.Sprint(stored) != fmt.Sprint(want) {
		t.Fatalf("stored %v, want %v", stored, want)
	}
}

// Through Save, as the handlers call it: concurrent saves come back with their own rows, and a
// refused one with ErrNoRows, the error Store.Save gives.
func TestBatchedSaveAnswersAsStoreSave(t *testing.T) {
	ctx := context.Background()
	f := newBatchFixture(t)
	open, closed, b := f.open, f.closed, f.batched
	var written, statements atomic.Int64 // what the metric is told
	b.batchRows = func(rows int) { written.Add(int64(rows)); statements.Add(1) }
	const n = 40
	type answer struct {
		a       Apuesta
		created bool
		err     error
	}
	answers := make([]answer, n)
	ids := make([]int64, n)
	sessions := make([]string, n)
	for i := range n {
		var p testenv.Player
		p, sessions[i] = f.signIn(fmt.Sprintf("c%02d", i))
		ids[i] = p.ID
	}
	start := make(chan struct{})
	finished := make(chan int)
	for i := range n {
		go func() {
			<-start
			partido := open
			if i%10 == 0 {
				partido = closed
			}
			a, created, err := b.Save(ctx, sessions[i], ids[i], fmt.Sprintf("c%02d@prode.test", i), partido, i%10, i/10)
			answers[i] = answer{a, created, err}
			finished <- i
		}()
	}
	close(start)
	for range n {
		<-finished
	}
	if written.Load() != n || statements.Load() < 1 || statements.Load() > n {
		t.Errorf("the metric was told of %d saves in %d statements, want %d saves", written.Load(), statements.Load(), n)
	}
	for i, got := range answers {
		if i%10 == 0 {
			if !errors.Is(got.err, ErrNoRows) {
				t.Errorf("save %d past the cut-off: %+v, want ErrNoRows", i, got)
			}
			continue
		}
		if got.err != nil || !got.created || got.a.Partido != open || got.a.GolesLocal != i%10 || got.a.GolesVisitante != i/10 {
			t.Errorf("save %d: %+v, want %d-%d created", i, got, i%10, i/10)
		}
	}
}
