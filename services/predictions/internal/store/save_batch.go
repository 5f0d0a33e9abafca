package store

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// Saves that arrive while others are being written go to PostgreSQL together, as one
// statement of up to maxBatch rows: under a match-day rush most of a save's cost in PostgreSQL
// is the statement around the row (a round trip, parse, a snapshot, a commit), not the row
// itself (docs/benchmarks.md, "POST a prediction"). A save that arrives while nothing is being
// written goes at once, alone: batching adds no wait, it only takes what is already waiting.
// Each row keeps Save's guards (the match apostable by the database clock, the session open),
// so the cut-off and 'Salir' hold row by row exactly as for one save.
const (
	maxBatch = 64
	// flushers is how many statements may be in flight at once: enough to keep both of
	// PostgreSQL's cores busy while a batch travels, few enough to leave the pool to reads.
	flushers = 4
	// writeTimeout bounds one batch's statement, which no single request's context does.
	writeTimeout = 15 * time.Second
)

// Batched saves predictions in batches (see above); every other method is the Store's.
type Batched struct {
	*Store
	batchRows func(rows int) // told each statement's number of saves (a metric); may be nil
	mu        sync.Mutex
	pending   []*pendingSave
	slots     chan struct{}
}

type pendingSave struct {
	session          pgtype.UUID
	player, partido  int64
	email            string
	local, visitante int16
	apuesta          Apuesta
	created, written bool
	err              error
	done             chan struct{}
}

// NewBatched wraps st so that concurrent saves share statements; batchRows, when not nil, is
// told how many saves each statement wrote.
func NewBatched(st *Store, batchRows func(rows int)) *Batched {
	return &Batched{Store: st, batchRows: batchRows, slots: make(chan struct{}, flushers)}
}

// Save is Store.Save, written in a batch with the saves waiting beside it.
func (b *Batched) Save(ctx context.Context, sessionID string, playerID int64, email string, partido int64, local, visitante int) (Apuesta, bool, error) {
	p := &pendingSave{player: playerID, partido: partido, email: email,
		local: int16(local), visitante: int16(visitante), done: make(chan struct{})}
	// A session id that is not a UUID would fail the whole batch's cast, and goals outside
	// 0..99 its CHECK: such a save goes alone, and fails alone, as it would without batching
	// (the signed tokens never carry such an id; the service refuses such goals before).
	if err := p.session.Scan(sessionID); err != nil || local < 0 || local > 99 || visitante < 0 || visitante > 99 {
		return b.Store.Save(ctx, sessionID, playerID, email, partido, local, visitante)
	}
	b.mu.Lock()
	b.pending = append(b.pending, p)
	b.mu.Unlock()
	b.flush(p)
	select {
	case <-p.done:
	case <-ctx.Done():
		// Like a request that hangs up after its statement was sent: the row may be written.
		return Apuesta{}, false, ctx.Err()
	}
	if p.err == nil && !p.written {
		return p.apuesta, false, ErrNoRows
	}
	return p.apuesta, p.created, p.err
}

// flush writes what is pending while a flusher's slot is free. Every flusher looks for more
// pending saves after giving its slot back, so a save queued while all slots were taken is
// never left behind. A request flushes until its own save (own) is written; more batches
// after that go on in a goroutine of their own, off that request's answer.
func (b *Batched) flush(own *pendingSave) {
	for {
		select {
		case b.slots <- struct{}{}:
		default:
			return // the slots' holders will see what is pending
		}
		if batch := b.take(); len(batch) > 0 {
			if b.batchRows != nil {
				b.batchRows(len(batch))
			}
			// No request's context: a batch carries other players' saves, which must not
			// fail because this one's client hung up.
			ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
			b.write(ctx, batch)
			cancel()
		}
		<-b.slots
		b.mu.Lock()
		more := len(b.pending) > 0
		b.mu.Unlock()
		switch {
		case !more:
			return
		case own != nil && own.finished():
			go b.flush(nil)
			return
		}
	}
}

func (p *pendingSave) finished() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// take removes up to maxBatch pending saves, at most one per player and match (a second one
// waits for the next batch: one statement cannot change a row twice), sorted by player and
// match so that two batches lock their rows in the same order and never deadlock.
func (b *Batched) take() []*pendingSave {
	b.mu.Lock()
	defer b.mu.Unlock()
	type key struct{ player, partido int64 }
	seen := make(map[key]bool, len(b.pending))
	var batch, left []*pendingSave
	for _, p := range b.pending {
		k := key{p.player, p.partido}
		if seen[k] || len(batch) == maxBatch {
			left = append(left, p)
			continue
		}
		seen[k] = true
		batch = append(batch, p)
	}
	b.pending = left
	sort.Slice(batch, func(i, j int) bool {
		if batch[i].player != batch[j].player {
			return batch[i].player < batch[j].player
		}
		return batch[i].partido < batch[j].partido
	})
	return batch
}

// write runs Save's statement for every row of the batch at once and hands each save its row,
// or none when a guard refused it.
func (b *Batched) write(ctx context.Context, batch []*pendingSave) {
	n := len(batch)
	sessions, players, partidos := make([]pgtype.UUID, n), make([]int64, n), make([]int64, n)
	emails, locals, visitantes := make([]string, n), make([]int16, n), make([]int16, n)
	for i, p := range batch {
		sessions[i], players[i], partidos[i] = p.session, p.player, p.partido
		emails[i], locals[i], visitantes[i] = p.email, p.local, p.visitante
	}
	rows, err := b.pool.Query(ctx, `
		INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
		SELECT v.jugador_id, v.email, p.id, v.goles_local, v.goles_visitante
		  FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::bigint[], $5::smallint[], $6::smallint[])
		       WITH ORDINALITY AS v(sesion, jugador_id, email, partido_id, goles_local, goles_visitante, n)
		  JOIN fixtures.partidos_publicados p ON p.id = v.partido_id AND p.apostable
		 WHERE EXISTS (SELECT 1 FROM players.sesiones_vigentes s WHERE s.id = v.sesion)
		 ORDER BY v.n
		ON CONFLICT (jugador_id, partido_id) DO UPDATE
		   SET goles_local = EXCLUDED.goles_local, goles_visitante = EXCLUDED.goles_visitante,
		       jugador_email = EXCLUDED.jugador_email, actualizada = now()
		RETURNING id, jugador_id, partido_id, goles_local, goles_visitante, jugador_email, (xmax = 0) AS creada`,
		sessions, players, emails, partidos, locals, visitantes)
	if err == nil {
		byKey := make(map[[2]int64]*pendingSave, n)
		for _, p := range batch {
			byKey[[2]int64{p.player, p.partido}] = p
		}
		for rows.Next() {
			var a Apuesta
			var player int64
			var created bool
			if err = rows.Scan(&a.ID, &player, &a.Partido, &a.GolesLocal, &a.GolesVisitante, &a.Jugador, &created); err != nil {
				break
			}
			if p := byKey[[2]int64{player, a.Partido}]; p != nil {
				p.apuesta, p.created, p.written = a, created, true
			}
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	for _, p := range batch {
		if err != nil {
			p.written, p.err = false, err
		}
		close(p.done)
	}
}
