package live

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// stream is one open stream: a hijacked connection and what it has been sent. About 100 bytes
// here, plus the runtime's net.Conn and the kernel's socket.
type stream struct {
	conn net.Conn
	head []byte // the response head and retry field, until written
	last int64  // the highest event ID the client has
}

// shard is one writer goroutine and its share of the streams. It works by level, not by
// queue: each round writes to every stream the held events it lacks (ID above its last), so
// that nothing piles up behind a slow round, and a burst of versions reaches a stream as its
// newest state.
type shard struct {
	hub  *Hub
	wake chan struct{} // capacity 1: a pending round
	ping atomic.Bool   // the next round sends the heartbeat

	mu      sync.Mutex // joining, closed
	joining []*stream
	closed  bool

	round   sync.Mutex // streams, seen, buf: held by a round and by close
	streams []*stream
	seen    uint64 // the snapshot every stream in streams is up to
	buf     []byte
}

func (s *shard) wakeUp() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *shard) run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-s.wake:
			s.once()
		}
	}
}

// once is one round: new streams get their head and catch-up; if the held events changed or
// a heartbeat is due, every stream gets what it lacks, or the heartbeat.
func (s *shard) once() {
	s.round.Lock()
	defer s.round.Unlock()
	s.mu.Lock()
	joining, closed := s.joining, s.closed
	s.joining = nil
	s.mu.Unlock()
	if closed {
		return
	}
	h := s.hub
	snap := h.snap.Load()
	ping := s.ping.Swap(false)

	if snap.gen != s.seen || ping {
		kept := s.streams[:0]
		for _, st := range s.streams {
			b := s.lacking(snap, st, nil)
			if b == nil && ping {
				if peerClosed(st.conn) {
					h.release(st, "gone")
					continue
				}
				b = heartbeat
			}
			if b != nil && !s.write(st, b) {
				h.release(st, "write")
				continue
			}
			kept = append(kept, st)
		}
		clear(s.streams[len(kept):]) // no stale pointers to closed streams
		s.streams = kept
		s.seen = snap.gen
	}

	for _, st := range joining {
		b := s.lacking(snap, st, st.head)
		st.head = nil
		if !s.write(st, b) {
			h.release(st, "write")
			continue
		}
		s.streams = append(s.streams, st)
	}
}

// lacking appends to prefix the held events newer than the stream's last and moves last up;
// nil when there is nothing to send. One event and no prefix, the usual case, costs nothing.
func (s *shard) lacking(snap *snapshot, st *stream, prefix []byte) []byte {
	b := prefix
	for _, e := range snap.events {
		if e.ID <= st.last {
			continue
		}
		st.last = e.ID
		if b == nil && e.ID == snap.events[len(snap.events)-1].ID {
			return e.wire
		}
		if b == nil {
			b = s.buf[:0]
		}
		b = append(b, e.wire...)
	}
	if prefix == nil && b != nil {
		s.buf = b[:0]
	}
	return b
}

// write writes b whole within the write timeout.
func (s *shard) write(st *stream, b []byte) bool {
	if err := st.conn.SetWriteDeadline(time.Now().Add(s.hub.opts.WriteTimeout)); err != nil {
		return false
	}
	_, err := st.conn.Write(b)
	return err == nil
}

// close closes every stream of the shard, and those about to join; Adopt closes any later one.
func (s *shard) close() {
	s.mu.Lock()
	s.closed = true
	joining := s.joining
	s.joining = nil
	s.mu.Unlock()
	for _, st := range joining {
		s.hub.release(st, "")
	}
	s.round.Lock()
	defer s.round.Unlock()
	for _, st := range s.streams {
		s.hub.release(st, "")
	}
	s.streams = nil
}
